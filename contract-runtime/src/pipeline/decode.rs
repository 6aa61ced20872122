//! The decode stage: strict parse and validation against the contract. The
//! typed fast path builds no tree; when the slow path parsed one, the flow
//! keeps it so that no later stage parses the text again.

use std::ops::ControlFlow;

use super::flow::{Flow, Step, Tree};
use crate::envelope::Status;

pub(super) async fn stage(f: &mut Flow<'_>) -> Step {
    let mut tree = None;
    let decoded = f.tool.decode(&f.call.arguments, &f.parts.limits, &mut tree);
    if let Some(tree) = tree {
        f.tree = Tree::Parsed(tree);
    }
    match decoded {
        Ok(args) => {
            f.args = Some(args);
            ControlFlow::Continue(())
        }
        Err(e) => f.refuse(Status::Invalid, e.into_errors()),
    }
}
