//! The resources, prompts and completions the suite reads: an rmcp
//! `ServerHandler` of the host's own, served beside the contract tools
//! (`McpServer::beside`). It implements only what it serves; tools, calls,
//! logging and the transport stay the contract server's.

use std::collections::HashSet;
use std::sync::Mutex;

use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Reference, ServerCapabilities, ServerConfig, SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use crate::tools::PNG;

/// The host's resources and prompts, and the URIs clients subscribed to.
#[derive(Default)]
pub struct Beside {
    subscribed: Mutex<HashSet<String>>,
}

/// An rmcp model value from its MCP JSON (the SDK's types are
/// `#[non_exhaustive]`; their wire form is the stable part).
fn from_json<T: DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

fn resource_not_found(uri: &str) -> ErrorData {
    ErrorData::resource_not_found(format!("no resource at {uri}"), None)
}

impl ServerHandler for Beside {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_prompts()
                .enable_completions()
                .build(),
        )
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        from_json(json!({"resources": [
            {"uri": "test://static-text", "name": "static-text", "title": "Static Text Resource",
             "description": "A static text resource for testing", "mimeType": "text/plain"},
            {"uri": "test://static-binary", "name": "static-binary", "title": "Static Binary Resource",
             "description": "A static binary resource (image) for testing", "mimeType": "image/png"},
            {"uri": "test://watched-resource", "name": "watched-resource", "title": "Watched Resource",
             "description": "A resource clients may subscribe to", "mimeType": "text/plain"}
        ]}))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        from_json(templates())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let contents = match uri {
            "test://static-text" => json!({"uri": uri, "mimeType": "text/plain",
                "text": "This is the content of the static text resource."}),
            "test://static-binary" => json!({"uri": uri, "mimeType": "image/png", "blob": PNG}),
            "test://watched-resource" => json!({"uri": uri, "mimeType": "text/plain",
                "text": "Watched resource content"}),
            _ => {
                let id = uri
                    .strip_prefix("test://template/")
                    .and_then(|rest| rest.strip_suffix("/data"))
                    .filter(|id| !id.is_empty() && !id.contains('/'))
                    .ok_or_else(|| resource_not_found(uri))?;
                let text =
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")});
                json!({"uri": uri, "mimeType": "application/json", "text": text.to_string()})
            }
        };
        let result: ReadResourceResult = from_json(json!({"contents": [contents]}))?;
        Ok(result.into())
    }

    #[allow(deprecated)] // the 2025 revisions' subscriptions
    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let Ok(mut s) = self.subscribed.lock() {
            s.insert(request.uri);
        }
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if let Ok(mut s) = self.subscribed.lock() {
            s.remove(&request.uri);
        }
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        from_json(prompts())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let arg = |name: &str| -> Result<String, ErrorData> {
            request
                .arguments
                .as_ref()
                .and_then(|a| a.get(name))
                .and_then(Value::as_str)
                .map(str::to_owned)
                .ok_or_else(|| {
                    ErrorData::invalid_params(format!("missing argument `{name}`"), None)
                })
        };
        let messages = match request.name.as_str() {
            "test_simple_prompt" => json!([
                {"role": "user", "content": {"type": "text", "text": "This is a simple prompt for testing."}}
            ]),
            "test_prompt_with_arguments" => {
                let (a, b) = (arg("arg1")?, arg("arg2")?);
                json!([{"role": "user", "content": {"type": "text",
                    "text": format!("Prompt with arguments: arg1='{a}', arg2='{b}'")}}])
            }
            "test_prompt_with_embedded_resource" => {
                let uri = arg("resourceUri")?;
                json!([
                    {"role": "user", "content": {"type": "resource", "resource": {
                        "uri": uri, "mimeType": "text/plain",
                        "text": "Embedded resource content for testing."}}},
                    {"role": "user", "content": {"type": "text",
                        "text": "Please process the embedded resource above."}}
                ])
            }
            "test_prompt_with_image" => json!([
                {"role": "user", "content": {"type": "image", "data": PNG, "mimeType": "image/png"}},
                {"role": "user", "content": {"type": "text", "text": "Please analyze the image above."}}
            ]),
            other => {
                return Err(ErrorData::invalid_params(
                    format!("no prompt named `{other}`"),
                    None,
                ))
            }
        };
        let result: GetPromptResult = from_json(json!({"messages": messages}))?;
        Ok(result.into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        // A reference to nothing served is invalid params, as the spec's
        // completion errors say, not an empty list.
        let known = match &request.r#ref {
            Reference::Prompt(p) => prompts()["prompts"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|listed| listed["name"] == p.name.as_str()),
            Reference::Resource(r) => templates()["resourceTemplates"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|listed| listed["uriTemplate"] == r.uri.as_str()),
            // A kind of reference a later revision adds: none served.
            _ => false,
        };
        if !known {
            return Err(ErrorData::invalid_params(
                "no prompt or resource template by that reference",
                None,
            ));
        }
        // No argument of these prompts and templates has values to offer.
        from_json(json!({"completion": {"values": [], "total": 0, "hasMore": false}}))
    }
}

/// The prompts served, as `prompts/list` lists them.
fn prompts() -> Value {
    json!({"prompts": [
        {"name": "test_simple_prompt", "title": "Simple Test Prompt",
         "description": "A simple prompt without arguments"},
        {"name": "test_prompt_with_arguments", "title": "Prompt With Arguments",
         "description": "A prompt with required arguments",
         "arguments": [
            {"name": "arg1", "description": "First test argument", "required": true},
            {"name": "arg2", "description": "Second test argument", "required": true}]},
        {"name": "test_prompt_with_embedded_resource", "title": "Prompt With Embedded Resource",
         "description": "A prompt that includes an embedded resource",
         "arguments": [{"name": "resourceUri", "description": "URI of the resource to embed",
                        "required": true}]},
        {"name": "test_prompt_with_image", "title": "Prompt With Image",
         "description": "A prompt that includes image content"}
    ]})
}

/// The resource templates served, as `resources/templates/list` lists them.
fn templates() -> Value {
    json!({"resourceTemplates": [
        {"uriTemplate": "test://template/{id}/data", "name": "template",
         "title": "Resource Template",
         "description": "A resource template with parameter substitution",
         "mimeType": "application/json"}
    ]})
}
