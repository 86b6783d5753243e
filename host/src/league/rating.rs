//! Ratings, from the `skillratings` crate rather than our own formulas: Glicko-2 for two-player games
//! (a rating, its deviation and a volatility), Weng-Lin (the Bayesian model behind OpenSkill) for
//! tables of more than two, and for solo games (2048) the mean of the game's points with its 95%
//! margin. A new version starts at the default rating with the largest uncertainty, so a few games
//! move it a lot and many games little.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};

/// Which model rates a game, by its seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Model {
    /// Glicko-2 (two players).
    Glicko2,
    /// Weng-Lin, Thurstone-Mosteller full pairing as `skillratings` implements it (three or more).
    WengLin,
    /// The mean of a solo game's points with its 95% margin.
    Points,
}

impl Model {
    pub fn for_seats(seats: usize) -> Model {
        match seats {
            1 => Model::Points,
            2 => Model::Glicko2,
            _ => Model::WengLin,
        }
    }

    /// The model's name and formula, as the ladder page shows it.
    pub fn describe(self) -> &'static str {
        match self {
            Model::Glicko2 => "Glicko-2 (Glickman 2012), tau 0.5: rating ± 2 deviations",
            Model::WengLin => {
                "Weng-Lin (OpenSkill), beta 25/6: mu ± 3 sigma, ranked by mu - 3 sigma"
            }
            Model::Points => "mean score per game ± 95% (normal approximation): the game's score",
        }
    }
}

/// One bot version's standing on a ladder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub model: Model,
    /// Glicko-2 rating, Weng-Lin mu, or mean score (solo games).
    pub value: f64,
    /// Glicko-2 deviation, Weng-Lin sigma, or the standard deviation of the points.
    pub uncertainty: f64,
    /// Glicko-2 volatility; unused otherwise.
    pub volatility: f64,
    pub games: u32,
    /// Solo games: the sum of points and of their squares, for the mean and its margin.
    pub sum: f64,
    pub sum_squares: f64,
}

impl Rating {
    /// A new version: the model's default rating at its largest uncertainty.
    pub fn new(model: Model) -> Rating {
        let (value, uncertainty, volatility) = match model {
            Model::Glicko2 => {
                let r = Glicko2Rating::new();
                (r.rating, r.deviation, r.volatility)
            }
            Model::WengLin => {
                let r = WengLinRating::new();
                (r.rating, r.uncertainty, 0.0)
            }
            Model::Points => (0.0, 0.0, 0.0),
        };
        Rating {
            model,
            value,
            uncertainty,
            volatility,
            games: 0,
            sum: 0.0,
            sum_squares: 0.0,
        }
    }

    /// What the ladder sorts by: the rating less its uncertainty (Glicko-2: 2 deviations, Weng-Lin:
    /// 3 sigma), so a bot with few games does not top the ladder on luck; solo games: the mean.
    pub fn conservative(&self) -> f64 {
        match self.model {
            Model::Glicko2 => self.value - 2.0 * self.uncertainty,
            Model::WengLin => self.value - 3.0 * self.uncertainty,
            Model::Points => self.value,
        }
    }

    /// Whether the rating has settled, so that more games would tell little: a Glicko-2 deviation
    /// under 80 (from 350), a Weng-Lin sigma under 2 (from 8.33), 50 solo games. The matchmaker
    /// gives settled bots a slow maintenance rate.
    pub fn settled(&self) -> bool {
        match self.model {
            Model::Glicko2 => self.uncertainty < 80.0,
            Model::WengLin => self.uncertainty < 2.0,
            Model::Points => self.games >= 50,
        }
    }

    /// Solo games: the half width of the 95% interval of the mean.
    pub fn margin(&self) -> f64 {
        if self.games < 2 {
            return 0.0;
        }
        1.959_963_984_540_054 * self.uncertainty / f64::from(self.games).sqrt()
    }

    fn glicko2(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.value,
            deviation: self.uncertainty,
            volatility: self.volatility,
        }
    }

    fn weng_lin(&self) -> WengLinRating {
        WengLinRating {
            rating: self.value,
            uncertainty: self.uncertainty,
        }
    }
}

/// Why a result cannot be rated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RatingError {
    #[error("{players} players but {places} places")]
    Shape { players: usize, places: usize },
    #[error("a {model:?} rating given to a game of {players} players")]
    Model { model: Model, players: usize },
}

/// Rates one game: `ratings` of its seats (in seat order) and each seat's place, 0 first, equal
/// places for a draw (a fault places its seat last, as the game contract's forfeit does). Solo
/// games take their points in `points`. Returns the new ratings in seat order.
pub fn rate(
    ratings: &[Rating],
    places: &[u32],
    points: Option<f64>,
) -> Result<Vec<Rating>, RatingError> {
    let players = ratings.len();
    if places.len() != players || players == 0 {
        let places = places.len();
        return Err(RatingError::Shape { players, places });
    }
    let model = ratings[0].model;
    if ratings.iter().any(|r| r.model != model) || model != Model::for_seats(players) {
        return Err(RatingError::Model { model, players });
    }
    let mut out: Vec<Rating> = ratings.to_vec();
    match model {
        Model::Points => {
            let r = &mut out[0];
            let p = points.unwrap_or(0.0);
            r.games += 1;
            r.sum += p;
            r.sum_squares += p * p;
            let n = f64::from(r.games);
            r.value = r.sum / n;
            r.uncertainty = if r.games < 2 {
                0.0
            } else {
                ((r.sum_squares - r.sum * r.sum / n) / (n - 1.0))
                    .max(0.0)
                    .sqrt()
            };
        }
        Model::Glicko2 => {
            let outcome = match places[0].cmp(&places[1]) {
                std::cmp::Ordering::Less => Outcomes::WIN,
                std::cmp::Ordering::Greater => Outcomes::LOSS,
                std::cmp::Ordering::Equal => Outcomes::DRAW,
            };
            let (a, b) = glicko2(
                &ratings[0].glicko2(),
                &ratings[1].glicko2(),
                &outcome,
                &Glicko2Config::new(),
            );
            for (r, new) in out.iter_mut().zip([a, b]) {
                (r.value, r.uncertainty, r.volatility) =
                    (new.rating, new.deviation, new.volatility);
                r.games += 1;
            }
        }
        Model::WengLin => {
            let teams: Vec<[WengLinRating; 1]> = ratings.iter().map(|r| [r.weng_lin()]).collect();
            let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .zip(places)
                .map(|(t, &p)| (&t[..], MultiTeamOutcome::new(p as usize + 1)))
                .collect();
            let new = weng_lin_multi_team(&ranked, &WengLinConfig::new());
            for (r, team) in out.iter_mut().zip(new) {
                (r.value, r.uncertainty) = (team[0].rating, team[0].uncertainty);
                r.games += 1;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glicko2_moves_two_new_players_as_glickmans_formulas_do() {
        // Two new players (1500, 350, 0.06), the first wins. The figures come from a separate
        // implementation of Glickman's steps 1-8 (glicko2.pdf, tau 0.5, tolerance 1e-6) written
        // for this test in Python, which also reproduces the paper's own example (1464.05, 151.52).
        let new = Rating::new(Model::Glicko2);
        let out = rate(&[new.clone(), new], &[0, 1], None).unwrap();
        assert!((out[0].value - 1662.3109).abs() < 0.01, "{}", out[0].value);
        assert!((out[1].value - 1337.6891).abs() < 0.01, "{}", out[1].value);
        assert!(
            (out[0].uncertainty - 290.3190).abs() < 0.01,
            "{}",
            out[0].uncertainty
        );
        assert!((out[0].volatility - 0.059_999_675).abs() < 1e-8);
        assert_eq!((out[0].games, out[1].games), (1, 1));
        let draw = rate(
            &[Rating::new(Model::Glicko2), Rating::new(Model::Glicko2)],
            &[0, 0],
            None,
        );
        assert!((draw.unwrap()[0].value - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn weng_lin_orders_a_table_by_its_places_and_shrinks_uncertainty() {
        let new = Rating::new(Model::WengLin);
        let out = rate(&vec![new.clone(); 4], &[2, 0, 3, 1], None).unwrap();
        let mut by_value: Vec<usize> = (0..4).collect();
        by_value.sort_by(|&a, &b| out[b].value.total_cmp(&out[a].value));
        assert_eq!(by_value, [1, 3, 0, 2], "first place rises most");
        assert!(
            out.iter()
                .all(|r| r.uncertainty < new.uncertainty && r.games == 1)
        );
        let sum: f64 = out.iter().map(|r| r.value).sum();
        assert!(
            (sum - 4.0 * 25.0).abs() < 1e-6,
            "zero-sum among equals: {sum}"
        );
    }

    #[test]
    fn solo_points_are_a_mean_with_a_margin() {
        let mut r = vec![Rating::new(Model::Points)];
        for p in [1.0, 2.0, 3.0, 4.0] {
            r = rate(&r, &[0], Some(p)).unwrap();
        }
        assert_eq!(r[0].value, 2.5);
        // Sample variance 5/3: margin 1.96 * sqrt(5/3 / 4).
        assert!(
            (r[0].margin() - 1.265_151).abs() < 1e-5,
            "{}",
            r[0].margin()
        );
    }

    #[test]
    fn a_result_of_the_wrong_shape_is_refused() {
        let g = Rating::new(Model::Glicko2);
        assert!(matches!(
            rate(&[g.clone(), g.clone()], &[0], None),
            Err(RatingError::Shape { .. })
        ));
        assert!(matches!(
            rate(&[g.clone(), g.clone(), g], &[0, 1, 2], None),
            Err(RatingError::Model { .. })
        ));
        let order = [Model::Glicko2, Model::WengLin, Model::Points];
        assert!(order.iter().all(|m| !m.describe().is_empty()));
    }
}
