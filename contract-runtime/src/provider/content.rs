//! What a provider's tool-result message leaves out of a tool's content
//! ([`crate::content`]): `render_results` writes the envelope only, so every
//! item of content is a loss, reported as a dialect reports a constraint it
//! cannot express. A host that can carry some of it (an Anthropic `image`
//! block in a `tool_result`, say) reads the items from
//! [`crate::Envelope::content`] and sends them itself.

use super::Provider;
use crate::content::Content;

/// One item of content the provider's tool-result message does not carry.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ContentLoss {
    /// The item's index in [`crate::Envelope::content`].
    pub index: usize,
    /// Its kind, as MCP names it (`image`, `audio`, `resource`, ...).
    pub kind: &'static str,
    /// What happens to it, and what the provider could take instead.
    pub note: &'static str,
}

/// Every item of `content` the tool-result message for `provider` leaves
/// out, with why.
///
/// ```
/// use contract_runtime::content::Content;
/// use contract_runtime::provider::{content_losses, Provider};
///
/// let losses = content_losses(Provider::OpenAiChat, &[Content::image(&[1], "image/png")]);
/// assert_eq!(losses[0].kind, "image");
/// ```
pub fn content_losses(provider: Provider, content: &[Content]) -> Vec<ContentLoss> {
    content
        .iter()
        .enumerate()
        .map(|(index, item)| ContentLoss {
            index,
            kind: item.kind(),
            note: note(provider, item),
        })
        .collect()
}

fn note(provider: Provider, item: &Content) -> &'static str {
    let media = matches!(item, Content::Image { .. } | Content::Audio { .. });
    match provider {
        Provider::OpenAiResponses if media => "not sent: `function_call_output` carries the envelope's text; an image can go as an `input_image` item of the next request",
        Provider::OpenAiResponses => "not sent: `function_call_output` carries the envelope's text",
        Provider::OpenAiChat => "not sent: a `role: tool` message carries text only",
        Provider::Anthropic if media => "not sent: the `tool_result` carries the envelope's text; an image can go as an `image` block of the same `tool_result`",
        Provider::Anthropic => "not sent: the `tool_result` carries the envelope's text",
        Provider::Gemini => "not sent: `functionResponse.response` carries the envelope object",
    }
}
