//! A tool's content ([`crate::content`]) as MCP content blocks.

use rmcp::model::ContentBlock;
use serde_json::{json, Map, Value};

use crate::content::{Body, Content};

/// The MCP content block of one item: `text`, `image`, `audio`, `resource`
/// (embedded, text or blob) or `resource_link`, as the schema spells them.
pub(crate) fn block(item: &Content) -> Option<ContentBlock> {
    let value = match item {
        Content::Text { text } => json!({"type": "text", "text": text}),
        Content::Image { data, mime_type } => {
            json!({"type": "image", "data": data, "mimeType": mime_type})
        }
        Content::Audio { data, mime_type } => {
            json!({"type": "audio", "data": data, "mimeType": mime_type})
        }
        Content::Resource {
            uri,
            mime_type,
            body,
        } => {
            let mut resource = Map::new();
            resource.insert("uri".into(), Value::from(uri.as_str()));
            if let Some(m) = mime_type {
                resource.insert("mimeType".into(), Value::from(m.as_str()));
            }
            match body {
                Body::Text(t) => resource.insert("text".into(), Value::from(t.as_str())),
                Body::Blob(b) => resource.insert("blob".into(), Value::from(b.as_str())),
            };
            json!({"type": "resource", "resource": resource})
        }
        Content::ResourceLink {
            uri,
            name,
            mime_type,
            description,
        } => {
            let mut link = Map::new();
            link.insert("type".into(), Value::from("resource_link"));
            link.insert("uri".into(), Value::from(uri.as_str()));
            link.insert("name".into(), Value::from(name.as_str()));
            if let Some(m) = mime_type {
                link.insert("mimeType".into(), Value::from(m.as_str()));
            }
            if let Some(d) = description {
                link.insert("description".into(), Value::from(d.as_str()));
            }
            Value::Object(link)
        }
    };
    match serde_json::from_value(value) {
        Ok(block) => Some(block),
        Err(e) => {
            // The shapes above are MCP's; an SDK that reads one differently
            // loses that item, and says so, rather than the whole result.
            tracing::warn!(kind = item.kind(), error = %e, "content the MCP SDK cannot read was left out");
            None
        }
    }
}
