//! What the API's handlers take from a request and how they fail: the rate limiter's key, the
//! signed-in user, `ApiError` (a status and `{"error": ...}`), and extractors whose rejections are such
//! errors (`Path`, `Query`, `Body`, `Upload`, `Auth`, `MaybeAuth`), so that every 4xx the API gives
//! is JSON that names the problem.

use axum::Json;
use axum::extract::{FromRequest, FromRequestParts};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use tower_governor::key_extractor::KeyExtractor;

use super::AppState;
use super::identity::{Credential, Identity, RateKey};
use crate::league::store::{StoreError, User};

/// Rate limits by the key [`super::identity::identify`] found: the user of a valid credential, else
/// the peer's address.
#[derive(Clone, Copy, Debug)]
pub(super) struct ClientKey;

impl KeyExtractor for ClientKey {
    type Key = String;

    fn extract<T>(
        &self,
        req: &axum::http::Request<T>,
    ) -> Result<Self::Key, tower_governor::GovernorError> {
        req.extensions()
            .get::<RateKey>()
            .map(|k| k.0.clone())
            .ok_or(tower_governor::GovernorError::UnableToExtractKey)
    }
}

/// An error as the API answers it: a status and `{"error": "..."}`.
#[derive(Debug)]
pub struct ApiError {
    pub(in crate::league) status: StatusCode,
    pub(in crate::league) message: String,
}

/// The body of every error.
#[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: String,
}

impl ApiError {
    pub(in crate::league) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            tracing::error!(status = %self.status, "{}", self.message);
        }
        (
            self.status,
            Json(ErrorBody {
                error: self.message,
            }),
        )
            .into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        let status = match &e {
            StoreError::NotFound(_) => StatusCode::NOT_FOUND,
            StoreError::Forbidden(_) => StatusCode::FORBIDDEN,
            StoreError::Conflict(_) => StatusCode::CONFLICT,
            StoreError::Invalid(_) => StatusCode::BAD_REQUEST,
            StoreError::Limited(_) => StatusCode::TOO_MANY_REQUESTS,
            StoreError::Database(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, e.to_string())
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(e: anyhow::Error) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}"))
    }
}

pub(super) type ApiResult<T> = Result<T, ApiError>;

/// `axum::extract::Path`, answering a bad path with a JSON 400 like every other error.
#[derive(Debug)]
pub struct Path<T>(pub T);

impl<T, S> FromRequestParts<S> for Path<T>
where
    T: serde::de::DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> ApiResult<Path<T>> {
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| Path(p.0))
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.body_text()))
    }
}

/// `axum::extract::Query`, answering a bad query with a JSON 400.
#[derive(Debug)]
pub struct Query<T>(pub T);

impl<T, S> FromRequestParts<S> for Query<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> ApiResult<Query<T>> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| Query(q.0))
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.body_text()))
    }
}

/// A JSON request body, answering a bad one with a JSON 400 (415 without the JSON content type).
#[derive(Debug)]
pub struct Body<T>(pub T);

impl<T, S> FromRequest<S> for Body<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> ApiResult<Body<T>> {
        Json::<T>::from_request(req, state)
            .await
            .map(|j| Body(j.0))
            .map_err(|e| ApiError::new(e.status(), e.body_text()))
    }
}

/// An upload's bytes, answering one over the cap with a JSON 413.
#[derive(Debug)]
pub struct Upload(pub axum::body::Bytes);

impl<S: Send + Sync> FromRequest<S> for Upload {
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> ApiResult<Upload> {
        axum::body::Bytes::from_request(req, state)
            .await
            .map(Upload)
            .map_err(|e| {
                let status = e.status();
                let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
                    crate::league::games::too_large()
                } else {
                    e.body_text()
                };
                ApiError::new(status, message)
            })
    }
}

/// The signed-in user (401 without a valid token).
#[derive(Debug)]
pub struct Auth(pub User);

/// The signed-in user, if any (401 only for a token that is not valid).
#[derive(Debug)]
pub struct MaybeAuth(pub Option<User>);

impl FromRequestParts<AppState> for MaybeAuth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> ApiResult<MaybeAuth> {
        // The API reads the bearer token only (a page's session cookie is not an API credential).
        let identity = parts
            .extensions
            .get::<Identity>()
            .cloned()
            .unwrap_or_default();
        match (identity.credential, identity.user) {
            (Some(Credential::Token), Some(user)) => Ok(MaybeAuth(Some(user))),
            (Some(Credential::Token), None) => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "the token is not valid (revoked, or never issued)",
            )),
            _ => Ok(MaybeAuth(None)),
        }
    }
}

impl FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> ApiResult<Auth> {
        match MaybeAuth::from_request_parts(parts, state).await?.0 {
            Some(user) => Ok(Auth(user)),
            None => Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "sign in: send `Authorization: Bearer <token>` (`botbox league user add` makes one)",
            )),
        }
    }
}
