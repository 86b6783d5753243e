use super::*;

fn test(text: &str) -> Sprt {
    text.parse().unwrap()
}

fn penta([ll, ld, dd, wd, ww]: [usize; 5]) -> Penta {
    Penta {
        ll,
        ld,
        dd,
        wl: 0,
        wd,
        ww,
    }
}

/// Figures from `python3 tests/sprt/llr_reference.py`, which finds the two distributions by
/// another method (Newton on the dual; the normalized constraint by a search over the mean);
/// the fastchess rows are also fastchess's own unit tests (`app/tests/sprt_test.cpp`: 2.25,
/// 3.01, 111.82, -3.07, -4.98, checked there to 1%). The script prints six decimals, and the
/// two methods agree to all of them.
#[test]
fn llr_matches_an_independent_computation() {
    let cases: [([usize; 5], &str, f64); 12] = [
        ([0, 0, 0, 0, 0], "elo0=0,elo1=5", -0.000001),
        ([3, 10, 20, 15, 24], "elo0=0,elo1=50", 5.777943),
        ([24, 15, 20, 10, 3], "elo0=0,elo1=50", -8.532108),
        ([30, 120, 200, 118, 32], "elo0=0,elo1=50", -9.911819),
        ([365, 16618, 36229, 16974, 390], "elo0=0,elo1=2", 2.250368),
        (
            [127, 4883, 10712, 5150, 104],
            "elo0=-1.75,elo1=0.25",
            3.010154,
        ),
        ([0, 0, 0, 0, 5550], "elo0=0,elo1=5", 111.797555),
        (
            [3, 10, 20, 15, 24],
            "elo0=0,elo1=50,model=logistic",
            6.200634,
        ),
        (
            [30, 120, 200, 118, 32],
            "elo0=0,elo1=50,model=logistic",
            -19.895434,
        ),
        (
            [223, 9863, 21279, 10037, 246],
            "elo0=0.5,elo1=2.5,model=logistic",
            -3.074126,
        ),
        (
            [871, 26175, 55983, 26678, 821],
            "elo0=0,elo1=2,model=logistic",
            -4.978673,
        ),
        (
            [5, 0, 7, 0, 2],
            "elo0=-10,elo1=20,model=logistic",
            -0.548665,
        ),
    ];
    for (counts, spec, expected) in cases {
        let llr = test(spec).llr(&penta(counts));
        assert!(
            (llr - expected).abs() < 2e-6,
            "{counts:?} {spec}: {llr} != {expected}"
        );
    }
}

#[test]
fn draws_and_split_pairs_count_alike() {
    let t = test("elo0=0,elo1=10");
    let split = Penta {
        wl: 7,
        dd: 3,
        ..penta([2, 4, 0, 6, 9])
    };
    assert_eq!(t.llr(&split), t.llr(&penta([2, 4, 10, 6, 9])));
    // Mirrored results give the opposite evidence about a symmetric test.
    let sym = test("elo0=-20,elo1=20");
    let (a, b) = (penta([1, 5, 9, 12, 8]), penta([8, 12, 9, 5, 1]));
    assert!((sym.llr(&a) + sym.llr(&b)).abs() < 1e-9);
}

#[test]
fn bounds_are_walds() {
    let (lower, upper) = test("elo0=0,elo1=5,alpha=0.05,beta=0.05").bounds();
    assert!((lower - (0.05f64 / 0.95).ln()).abs() < 1e-12);
    assert!((upper - 2.944_438_979_166_44).abs() < 1e-12);
    let (lower, upper) = test("elo0=0,elo1=5,alpha=0.01,beta=0.1").bounds();
    assert!((lower - (0.1f64 / 0.99).ln()).abs() < 1e-12);
    assert!((upper - (0.9f64 / 0.01).ln()).abs() < 1e-12);
}

#[test]
fn the_spelling_is_fastchesss_with_defaults_for_the_error_rates() {
    let t = test("elo0=0, elo1=5");
    assert_eq!((t.alpha, t.beta, t.model), (0.05, 0.05, Model::Normalized));
    let t = test("elo1=50,elo0=-10,alpha=0.01,beta=0.1,model=logistic");
    assert_eq!((t.elo0, t.elo1, t.alpha, t.beta), (-10.0, 50.0, 0.01, 0.1));
    assert_eq!(t.model, Model::Logistic);
    assert_eq!(test(&t.to_string()), t, "Display reads back");
}

#[test]
fn bad_tests_are_refused_naming_the_key_or_value() {
    let cases: [(&str, SprtError); 10] = [
        (
            "elo0",
            SprtError::NotAPair {
                item: "elo0".into(),
            },
        ),
        (
            "elo0=0,elo2=5",
            SprtError::UnknownKey { key: "elo2".into() },
        ),
        (
            "elo0=0,elo0=1,elo1=5",
            SprtError::Repeated { key: "elo0".into() },
        ),
        (
            "elo0=zero,elo1=5",
            SprtError::NotANumber {
                key: "elo0".into(),
                value: "zero".into(),
            },
        ),
        (
            "elo0=0,elo1=inf",
            SprtError::NotANumber {
                key: "elo1".into(),
                value: "inf".into(),
            },
        ),
        (
            "elo0=0,elo1=5,model=bayesian",
            SprtError::UnknownModel {
                value: "bayesian".into(),
            },
        ),
        ("elo0=0", SprtError::Missing { key: "elo1" }),
        (
            "elo0=5,elo1=5",
            SprtError::EloOrder {
                elo0: 5.0,
                elo1: 5.0,
            },
        ),
        (
            "elo0=0,elo1=5,alpha=1.5",
            SprtError::Probability {
                key: "alpha",
                value: 1.5,
            },
        ),
        (
            "elo0=0,elo1=5,alpha=0.5,beta=0.5",
            SprtError::ErrorSum {
                alpha: 0.5,
                beta: 0.5,
            },
        ),
    ];
    for (text, expected) in cases {
        let got = text.parse::<Sprt>().unwrap_err();
        assert_eq!(got, expected, "{text}");
        assert!(!got.to_string().contains('\n'), "one line: {got}");
    }
    assert!(
        SprtError::UnknownKey { key: "x".into() }
            .to_string()
            .contains("\"x\"")
    );
}

fn game(number: usize, players: [&str; 2], winner: Option<usize>) -> GameRecord {
    GameRecord {
        number,
        seed: 0,
        variant: "standard".into(),
        players: players.map(String::from).to_vec(),
        sha256: vec![String::new(); 2],
        winner: winner.map(|s| players[s].to_string()),
        winner_seat: winner,
        reason: "test".into(),
        turns: 1,
        faults: vec![None, None],
        figures: Default::default(),
    }
}

/// Pairs of games with sides swapped in which `a` wins `wins` of the two.
fn pairs(results: &[(Option<usize>, Option<usize>)]) -> Vec<GameRecord> {
    results
        .iter()
        .enumerate()
        .flat_map(|(k, &(w0, w1))| {
            [
                game(2 * k + 1, ["a", "b"], w0),
                game(2 * k + 2, ["b", "a"], w1),
            ]
        })
        .collect()
}

#[test]
fn pairs_are_scored_for_the_first_strategy_whichever_side_it_plays() {
    // a wins both; a wins then b wins; a draws then a wins; b wins both; draws.
    let games = pairs(&[
        (Some(0), Some(1)),
        (Some(0), Some(0)),
        (None, Some(1)),
        (Some(1), Some(0)),
        (None, None),
    ]);
    let r = Sequential::of(test("elo0=0,elo1=5"), "a", "b", &games);
    let expected = Penta {
        ll: 1,
        ld: 0,
        dd: 1,
        wl: 1,
        wd: 1,
        ww: 1,
    };
    assert_eq!(r.penta, expected);
    assert_eq!((r.games, r.verdict), (10, None));
    assert!((r.llr - test("elo0=0,elo1=5").llr(&expected)).abs() < 1e-12);
    // The counts as fastchess prints them, then in words from a's side.
    assert_eq!(
        r.penta_line(),
        "pairs [1, 0, 1+1, 1, 1]: 1 won both, 1 won and drew, 1 won and lost, 1 drew both, \
         0 lost and drew, 1 lost both"
    );
}

#[test]
fn the_status_says_which_hypothesis_was_accepted_and_stops_counting() {
    let t = test("elo0=0,elo1=50");
    // a wins every pair: H1 after a few pairs; games after the verdict are not counted.
    let wins = pairs(&[(Some(0), Some(1)); 40]);
    let r = Sequential::of(t, "a", "b", &wins);
    assert_eq!(r.verdict, Some(Hypothesis::H1));
    assert!(r.llr >= r.upper && r.games < 80, "{r:?}");
    assert!(
        r.conclusion()
            .starts_with("H1 accepted: a is stronger than b")
    );
    let mut s = Sequential::new(t, "a", "b");
    let at = wins.iter().position(|g| s.push(g).is_some()).unwrap();
    assert_eq!(
        at + 1,
        r.games,
        "the verdict comes with the pair that crossed"
    );
    // b wins every pair: H0.
    let losses = pairs(&[(Some(1), Some(0)); 40]);
    let r = Sequential::of(t, "a", "b", &losses);
    assert_eq!(r.verdict, Some(Hypothesis::H0));
    assert!(r.llr <= r.lower);
    assert!(
        r.conclusion()
            .starts_with("H0 accepted: a is not stronger than b")
    );
    // Even results over few pairs: undecided, and an unpaired last game is not counted.
    let even = pairs(&[(Some(0), Some(0)), (Some(1), Some(1))]);
    let r = Sequential::of(t, "a", "b", &even[..3]);
    assert_eq!((r.verdict, r.games, r.penta.pairs()), (None, 2, 1));
    assert_eq!(r.conclusion(), "undecided");
}

/// Hypotheses the normalized model cannot fit are refused when read; within the bound, even the
/// most lopsided counts give a finite LLR (no panic, no endless fit), and the logistic model takes
/// any width.
#[test]
fn every_accepted_test_has_a_finite_llr_for_any_counts() {
    for text in ["elo0=0,elo1=250", "elo0=-201,elo1=0"] {
        assert!(
            matches!(text.parse::<Sprt>(), Err(SprtError::TooWide { .. })),
            "{text}"
        );
    }
    for text in ["elo0=nan,elo1=5", "elo0=0,elo1=inf"] {
        assert!(
            matches!(text.parse::<Sprt>(), Err(SprtError::NotANumber { .. })),
            "{text}"
        );
    }
    let nan = Sprt {
        elo0: f64::NAN,
        ..test("elo0=0,elo1=5")
    };
    assert!(matches!(
        nan.check(),
        Err(SprtError::NotFinite { key: "elo0", .. })
    ));
    let counts = [
        [0, 0, 0, 0, 40],
        [40, 0, 0, 0, 0],
        [0, 0, 40, 0, 0],
        [1, 0, 0, 0, 200],
        [3, 1, 2, 5, 7],
    ];
    for spec in [
        "elo0=0,elo1=200",
        "elo0=-200,elo1=200",
        "elo0=-200,elo1=-150",
        "elo0=0,elo1=5",
        "elo0=0,elo1=1000,model=logistic",
        "elo0=-1000,elo1=0,model=logistic",
    ] {
        for c in counts {
            let llr = test(spec).llr(&penta(c));
            assert!(llr.is_finite(), "{spec} {c:?}: {llr}");
        }
    }
}
