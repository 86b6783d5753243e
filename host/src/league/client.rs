//! The CLI's side of the API: a blocking HTTP client (reqwest) that speaks `/api/v1/` as any other
//! client would, so the CLI is a client of the same documented API as curl or a generated client.

use serde::de::DeserializeOwned;

use super::server::ErrorBody;

/// A league server and, for what needs one, a token.
#[derive(Debug)]
pub struct Client {
    base: String,
    token: Option<String>,
    http: reqwest::blocking::Client,
}

impl Client {
    pub fn new(server: &str, token: Option<String>) -> anyhow::Result<Client> {
        let http = reqwest::blocking::Client::builder()
            .timeout(std::time::Duration::from_secs(120))
            .build()?;
        Ok(Client {
            base: server.trim_end_matches('/').to_string(),
            token: token.filter(|t| !t.is_empty()),
            http,
        })
    }

    fn url(&self, path: &str) -> String {
        format!("{}/api/v1{path}", self.base)
    }

    fn send(
        &self,
        request: reqwest::blocking::RequestBuilder,
    ) -> anyhow::Result<reqwest::blocking::Response> {
        let request = match &self.token {
            Some(token) => request.bearer_auth(token),
            None => request,
        };
        let response = request.send().map_err(|e| {
            // reqwest's message names the request; the cause is at the end of its chain
            // ("Connection refused", a TLS certificate the system does not trust...).
            let mut cause: &dyn std::error::Error = &e;
            while let Some(next) = cause.source() {
                cause = next;
            }
            anyhow::anyhow!(
                "cannot reach the league at {}: {cause} (start one with `botbox league serve`, or give --server)",
                self.base
            )
        })?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let text = response.text().unwrap_or_default();
        let message = serde_json::from_str::<ErrorBody>(&text)
            .map(|e| e.error)
            .unwrap_or(text);
        anyhow::bail!(
            "{} {}: {message}",
            status.as_u16(),
            status.canonical_reason().unwrap_or("")
        )
    }

    pub fn get<T: DeserializeOwned>(&self, path: &str) -> anyhow::Result<T> {
        Ok(self.send(self.http.get(self.url(path)))?.json()?)
    }

    pub fn get_text(&self, path: &str) -> anyhow::Result<String> {
        Ok(self.send(self.http.get(self.url(path)))?.text()?)
    }

    pub fn post<T: DeserializeOwned>(&self, path: &str, body: Vec<u8>) -> anyhow::Result<T> {
        let request = self
            .http
            .post(self.url(path))
            .header(reqwest::header::CONTENT_TYPE, "application/octet-stream")
            .body(body);
        Ok(self.send(request)?.json()?)
    }

    /// Posts `body` as JSON.
    pub fn post_json<T: DeserializeOwned>(
        &self,
        path: &str,
        body: &serde_json::Value,
    ) -> anyhow::Result<T> {
        let request = self.http.post(self.url(path)).json(body);
        Ok(self.send(request)?.json()?)
    }

    /// Whether a token was given (the commands that need one say so before asking the server).
    pub fn signed_in(&self) -> bool {
        self.token.is_some()
    }
}
