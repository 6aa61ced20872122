//! Resources, prompts and completions beside the contract tools: the host
//! writes them as an rmcp [`ServerHandler`] of its own, and
//! [`McpServer::beside`](super::McpServer::beside) serves its answers to
//! those requests from the same server. The tools (their listing, the
//! dispatcher, the approval flows, the strict reading of raw arguments),
//! logging and the transports stay the contract server's.
//!
//! rmcp's handler trait returns `impl Future`, which cannot be a trait
//! object; [`Beside`] is the part the server asks of it, with boxed futures,
//! written once for every handler.

use std::future::Future;
use std::pin::Pin;

use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerConfig, SubscribeRequestParams,
    UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

type Answer<'a, T> = Pin<Box<dyn Future<Output = Result<T, ErrorData>> + Send + 'a>>;
type Ctx = RequestContext<RoleServer>;

/// What the contract server asks of the host's handler.
pub(crate) trait Beside: Send + Sync + 'static {
    fn info(&self) -> ServerConfig;
    fn list_resources(
        &self,
        r: Option<PaginatedRequestParams>,
        c: Ctx,
    ) -> Answer<'_, ListResourcesResult>;
    fn list_resource_templates(
        &self,
        r: Option<PaginatedRequestParams>,
        c: Ctx,
    ) -> Answer<'_, ListResourceTemplatesResult>;
    fn read_resource(
        &self,
        r: ReadResourceRequestParams,
        c: Ctx,
    ) -> Answer<'_, ReadResourceResponse>;
    fn subscribe(&self, r: SubscribeRequestParams, c: Ctx) -> Answer<'_, ()>;
    fn unsubscribe(&self, r: UnsubscribeRequestParams, c: Ctx) -> Answer<'_, ()>;
    fn list_prompts(
        &self,
        r: Option<PaginatedRequestParams>,
        c: Ctx,
    ) -> Answer<'_, ListPromptsResult>;
    fn get_prompt(&self, r: GetPromptRequestParams, c: Ctx) -> Answer<'_, GetPromptResponse>;
    fn complete(&self, r: CompleteRequestParams, c: Ctx) -> Answer<'_, CompleteResult>;
}

impl<H: ServerHandler> Beside for H {
    fn info(&self) -> ServerConfig {
        ServerHandler::get_info(self)
    }
    fn list_resources(
        &self,
        r: Option<PaginatedRequestParams>,
        c: Ctx,
    ) -> Answer<'_, ListResourcesResult> {
        Box::pin(ServerHandler::list_resources(self, r, c))
    }
    fn list_resource_templates(
        &self,
        r: Option<PaginatedRequestParams>,
        c: Ctx,
    ) -> Answer<'_, ListResourceTemplatesResult> {
        Box::pin(ServerHandler::list_resource_templates(self, r, c))
    }
    fn read_resource(
        &self,
        r: ReadResourceRequestParams,
        c: Ctx,
    ) -> Answer<'_, ReadResourceResponse> {
        Box::pin(ServerHandler::read_resource(self, r, c))
    }
    // `resources/subscribe` is the 2025 revisions' way to watch a resource;
    // rmcp marks it legacy, and clients of those revisions still send it.
    #[allow(deprecated)]
    fn subscribe(&self, r: SubscribeRequestParams, c: Ctx) -> Answer<'_, ()> {
        Box::pin(ServerHandler::subscribe(self, r, c))
    }
    #[allow(deprecated)]
    fn unsubscribe(&self, r: UnsubscribeRequestParams, c: Ctx) -> Answer<'_, ()> {
        Box::pin(ServerHandler::unsubscribe(self, r, c))
    }
    fn list_prompts(
        &self,
        r: Option<PaginatedRequestParams>,
        c: Ctx,
    ) -> Answer<'_, ListPromptsResult> {
        Box::pin(ServerHandler::list_prompts(self, r, c))
    }
    fn get_prompt(&self, r: GetPromptRequestParams, c: Ctx) -> Answer<'_, GetPromptResponse> {
        Box::pin(ServerHandler::get_prompt(self, r, c))
    }
    fn complete(&self, r: CompleteRequestParams, c: Ctx) -> Answer<'_, CompleteResult> {
        Box::pin(ServerHandler::complete(self, r, c))
    }
}
