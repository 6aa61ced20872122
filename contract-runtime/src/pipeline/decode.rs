//! The decode stage: strict parse and validation against the contract. The
//! typed fast path builds no tree; when the slow path parsed one, the flow
//! keeps it so that no later stage parses the text again.

use std::ops::ControlFlow;

use super::{Flow, Step, Tree};
use crate::contract::ToolContract;
use crate::decode::decode_keeping_tree;
use crate::envelope::Status;

pub(super) async fn stage<C: ToolContract>(f: &mut Flow<'_, C>) -> Step {
    let (decoded, tree) = decode_keeping_tree::<C::Args>(&f.call.arguments, &f.parts.limits);
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
