//! Content a tool returns beside its structured result: images, audio,
//! embedded resources and links to resources (a screenshot tool, a chart
//! tool, a tool that reads a file a client may want whole).
//!
//! A handler returns it with [`WithContent`]: `Result<WithContent<T>, E>`
//! publishes `T`'s output schema, puts `T` in the envelope's `result` as
//! every tool does, and hands the content to the transport beside the
//! envelope ([`crate::Envelope::content`]). The envelope stays the one source
//! of the call's status; content never changes it, and is carried only with
//! `ok` and `partial`.
//!
//! Where it goes:
//!
//! - MCP (`mcp`): each item is a content block of the `CallToolResult`, after
//!   the envelope's text;
//! - the provider adapters (`provider::render_results`) carry the envelope
//!   only: [`crate::provider::content_losses`] says, per provider, what of the
//!   content a host's next request would not carry;
//! - the journal and idempotency records keep the envelope, not the content:
//!   a replayed call answers its recorded envelope without the content;
//! - the caller's secrets are scrubbed from its text (text items, text
//!   resources, resource links) as from the envelope; bytes (images, audio,
//!   blobs) are the tool's to keep free of them.
//!
//! ```
//! use contract_runtime::content::{Content, WithContent};
//!
//! let shot = WithContent::new(42).with(Content::image(&[0x89, b'P', b'N', b'G'], "image/png"));
//! assert_eq!(shot.content.len(), 1);
//! ```

use std::fmt;

/// One item of content beside a tool's structured result.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Content {
    /// Plain text for people or the model.
    Text {
        /// The text.
        text: String,
    },
    /// An image, its bytes in standard base64.
    Image {
        /// The bytes, base64 (RFC 4648, with padding).
        data: String,
        /// Its media type, e.g. `image/png`.
        mime_type: String,
    },
    /// A sound, its bytes in standard base64.
    Audio {
        /// The bytes, base64 (RFC 4648, with padding).
        data: String,
        /// Its media type, e.g. `audio/wav`.
        mime_type: String,
    },
    /// A resource sent whole, with its URI.
    Resource {
        /// The resource's URI.
        uri: String,
        /// Its media type, when known.
        mime_type: Option<String>,
        /// Its text, or its bytes.
        body: Body,
    },
    /// A link to a resource the client can read (MCP `resources/read`).
    ResourceLink {
        /// The resource's URI.
        uri: String,
        /// Its name.
        name: String,
        /// Its media type, when known.
        mime_type: Option<String>,
        /// What it is.
        description: Option<String>,
    },
}

/// An embedded resource's body.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Body {
    /// Text.
    Text(String),
    /// Bytes, in standard base64.
    Blob(String),
}

impl Content {
    /// Text.
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text { text: text.into() }
    }

    /// An image from its bytes.
    pub fn image(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::Image {
            data: base64(bytes),
            mime_type: mime_type.into(),
        }
    }

    /// An image already in base64.
    pub fn image_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Content {
        Content::Image {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }

    /// A sound from its bytes.
    pub fn audio(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::Audio {
            data: base64(bytes),
            mime_type: mime_type.into(),
        }
    }

    /// A sound already in base64.
    pub fn audio_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Content {
        Content::Audio {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }

    /// A text resource, sent whole.
    pub fn resource_text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Content {
        Content::Resource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: Body::Text(text.into()),
        }
    }

    /// A binary resource, sent whole.
    pub fn resource_bytes(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: &[u8],
    ) -> Content {
        Content::Resource {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            body: Body::Blob(base64(bytes)),
        }
    }

    /// A link to a resource.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Content {
        Content::ResourceLink {
            uri: uri.into(),
            name: name.into(),
            mime_type: None,
            description: None,
        }
    }

    /// What kind of content this is, as MCP names it (`text`, `image`,
    /// `audio`, `resource`, `resource_link`).
    pub fn kind(&self) -> &'static str {
        match self {
            Content::Text { .. } => "text",
            Content::Image { .. } => "image",
            Content::Audio { .. } => "audio",
            Content::Resource { .. } => "resource",
            Content::ResourceLink { .. } => "resource_link",
        }
    }
}

/// Not the bytes: a debug print of a screenshot would fill a log.
impl fmt::Debug for Content {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Content::Text { text } => write!(f, "Text({} bytes)", text.len()),
            Content::Image { data, mime_type } => {
                write!(f, "Image({mime_type}, {} base64 bytes)", data.len())
            }
            Content::Audio { data, mime_type } => {
                write!(f, "Audio({mime_type}, {} base64 bytes)", data.len())
            }
            Content::Resource { uri, .. } => write!(f, "Resource({uri})"),
            Content::ResourceLink { uri, .. } => write!(f, "ResourceLink({uri})"),
        }
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Body::Text(t) => write!(f, "Text({} bytes)", t.len()),
            Body::Blob(b) => write!(f, "Blob({} base64 bytes)", b.len()),
        }
    }
}

/// A tool's output with content beside it: return
/// `Result<WithContent<T>, E>` from a handler. The published output schema
/// is `T`'s, and `T` is the envelope's `result`.
#[derive(Clone, Debug)]
pub struct WithContent<T> {
    /// The structured result.
    pub result: T,
    /// The content, in order.
    pub content: Vec<Content>,
}

impl<T> WithContent<T> {
    /// A result with no content yet.
    pub fn new(result: T) -> WithContent<T> {
        WithContent {
            result,
            content: Vec::new(),
        }
    }

    /// Adds one item of content.
    pub fn with(mut self, item: Content) -> WithContent<T> {
        self.content.push(item);
        self
    }
}

/// Standard base64 with padding (RFC 4648 §4).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (input, expected) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), expected, "{input}");
        }
    }
}
