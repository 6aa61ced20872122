//! The authority stage: the caller holds every scope the tool declares, and
//! every confined path argument resolves beneath its root.

use std::ops::ControlFlow;

use super::flow::{Flow, Step};
use crate::codes;
use crate::context::{CallContext, Caller};
use crate::contract::ToolSpec;
use crate::envelope::{ErrorEntry, Status};
use crate::path::{ConfinedPath, PathError};
use crate::tool::DecodedArgs;

pub(super) async fn stage(f: &mut Flow<'_>) -> Step {
    let Some(args) = &f.args else {
        return f.end(f.internal("the arguments were not decoded"));
    };
    if let Err((status, errors)) = check(f.spec, f.caller, &**args) {
        return f.refuse(status, errors);
    }
    let ctx = CallContext::new(
        f.caller.clone(),
        f.parts.host.clone(),
        &f.call.id,
        f.spec.name,
    );
    // The registry refused to build without the host state the tools
    // declare, so this only fails for state a host removed some other way;
    // it is answered here, and the handler's parameters are never missing.
    if let Some(need) = f.spec.state.iter().find(|n| !ctx.has_state((n.id)())) {
        return f.end(f.internal(&format!(
            "the host provides no `{}` state, which the tool declares",
            need.name
        )));
    }
    f.ctx = Some(ctx);
    ControlFlow::Continue(())
}

/// `Err` with the status and errors to answer when the call may not run.
fn check(
    spec: &ToolSpec,
    caller: &Caller,
    args: &dyn DecodedArgs,
) -> Result<(), (Status, Vec<ErrorEntry>)> {
    if spec.authority.iter().any(|s| !caller.has_scope(s)) {
        let missing: Vec<&str> = spec
            .authority
            .iter()
            .copied()
            .filter(|s| !caller.has_scope(s))
            .collect();
        let e = ErrorEntry::new(
            codes::PERMISSION_DENIED,
            format!(
                "`{}` needs the scope {} which this caller does not hold",
                spec.name,
                missing.join(", ")
            ),
        )
        .with_hint("ask the user to grant the scope, or choose another tool");
        return Err((Status::Denied, vec![e]));
    }
    check_paths(caller, args)
}
fn check_paths(caller: &Caller, args: &dyn DecodedArgs) -> Result<(), (Status, Vec<ErrorEntry>)> {
    let mut errors = Vec::new();
    let mut host_error = None;
    args.visit_paths(&mut |ptr, path, root_name| {
        let Some(root) = caller.get_root(root_name) else {
            host_error = Some(root_name);
            return;
        };
        let outside = ConfinedPath::parse(path.as_str()).is_err() || matches!(root.check(path), Err(PathError::OutsideScope));
        if outside {
            errors.push(
                ErrorEntry::new(
                    codes::PATH_OUTSIDE_SCOPE,
                    format!("`{}` is outside the tool's scope ({})", ptr.render(), root.name()),
                )
                .with_field(ptr.render())
                .with_hint("use a path relative to the tool's root, without `..` that leaves it or links that point outside"),
            );
        }
    });
    if let Some(name) = host_error {
        let e = ErrorEntry::new(
            codes::INTERNAL,
            format!("the host has not configured the root `{name}`"),
        );
        // A host mistake, not the model's: the tool did not run.
        return Err((Status::Failed, vec![e]));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err((Status::Denied, errors))
    }
}
