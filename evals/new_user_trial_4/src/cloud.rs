//! Cloud infrastructure tools: VMs, DNS, buckets.
#![allow(unused_variables, dead_code)]

use contract_runtime::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// A virtual machine.
#[derive(Serialize, JsonSchema)]
pub struct Vm {
    /// The VM's id.
    pub vm_id: String,
    /// Its state, e.g. `provisioning`.
    pub state: String,
}

/// A change the cloud applied.
#[derive(Serialize, JsonSchema)]
pub struct Applied {
    /// The id of the changed resource.
    pub id: String,
}

/// Costs by group.
#[derive(Serialize, JsonSchema)]
pub struct Usage {
    /// Group name and cost in cents.
    pub lines: Vec<(String, u64)>,
    /// Whether the numbers are still an estimate.
    pub estimate: bool,
}

/// Why a cloud tool could not do what was asked.
#[derive(Debug, ToolFailure)]
pub enum CloudError {
    /// The project, VM, zone or bucket does not exist.
    #[failure(code = "not-found")]
    NotFound,
    /// The project's quota does not allow it.
    #[failure(code = "quota-exceeded", repair = "tell the user the project's quota is used up")]
    QuotaExceeded,
    /// The name is taken.
    #[failure(code = "name-taken", repair = "pick another name")]
    NameTaken,
    /// The cloud API did not answer.
    #[failure(code = "cloud-unavailable", transient)]
    Unavailable,
}

// @gt A
/// A zone VMs can run in.
#[derive(ToolArgs)]
pub enum Zone {
    // @gt A
    /// Western Europe, zone a.
    #[serde(rename = "eu-west1-a")]
    EuWest1A,
    // @gt A
    /// Western Europe, zone b.
    #[serde(rename = "eu-west1-b")]
    EuWest1B,
    // @gt A
    /// Eastern US, zone a.
    #[serde(rename = "us-east1-a")]
    UsEast1A,
    // @gt A
    /// Eastern US, zone c.
    #[serde(rename = "us-east1-c")]
    UsEast1C,
}

// @gt A
/// A DNS record type.
#[derive(ToolArgs)]
#[serde(rename_all = "UPPERCASE")]
pub enum RecordType {
    // @gt A
    /// An IPv4 address.
    A,
    // @gt A
    /// An IPv6 address.
    Aaaa,
    // @gt A
    /// An alias of another name.
    Cname,
    // @gt A
    /// A mail server.
    Mx,
    // @gt A
    /// Free text.
    Txt,
}

/// `create_vm` needs a person for a large machine.
pub fn large_vm(_ctx: &CallContext, args: &CreateVmArgs) -> Option<String> {
    (args.vcpus > 16).then(|| format!("{} vCPUs is a large machine", args.vcpus))
}

// @gt B: world rule, at most 20 VMs per project
/// Create a virtual machine in a project; billing starts when it boots. A
/// project may run at most 20 VMs.
#[tool_contract(
    effect = external,
    idempotency = key(request_id),
    approval = when(large_vm),
    authority = "compute:write"
)]
pub fn create_vm(
    // @gt A
    /// Project id: lowercase letters, digits and hyphens, starting with a
    /// letter, 6 to 30 characters.
    #[arg(pattern = "^[a-z][a-z0-9-]{4,28}[a-z0-9]$")]
    project: String,
    // @gt C: prose says at most 40 characters; pattern allows up to 63
    /// VM name, lowercase, at most 40 characters.
    #[arg(pattern = "^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$")]
    name: String,
    // @gt A
    /// Zone to run in (eu-west1-a, eu-west1-b, us-east1-a or us-east1-c).
    zone: Zone,
    // @gt A
    /// Virtual CPUs, 1 to 64; more than 16 needs approval.
    #[arg(range(min = 1, max = 64))]
    vcpus: u8,
    // @gt C: prose says between 1 and 256; declares range(min = 1, max = 512)
    /// Memory in GiB, between 1 and 256.
    #[arg(range(min = 1, max = 512), prose = "trial: compile error recorded")]
    memory_gb: u16,
    // @gt B: each key starts with `ssh-ed25519 ` or `ssh-rsa `; no pattern declared
    /// Public SSH keys to install, each in OpenSSH format starting with
    /// `ssh-ed25519 ` or `ssh-rsa `.
    #[arg(length(max = 10))]
    ssh_keys: Vec<String>,
    // @gt A
    /// A UUID for this request; retries with the same one create one VM.
    #[arg(format = "uuid")]
    request_id: String,
) -> Result<Vm, CloudError> {
    Err(CloudError::Unavailable)
}

// @gt B: world rules, VM must be stopped and memory at most 8 GiB per vCPU
/// Change a stopped VM's CPU and memory. The VM must be stopped, and memory
/// may be at most 8 GiB per vCPU.
#[tool_contract(effect = reversible, idempotency = natural, authority = "compute:write")]
pub fn resize_vm(
    // @gt A
    /// The VM, `vm-` and 8 hex characters.
    #[arg(pattern = "^vm-[0-9a-f]{8}$")]
    vm_id: String,
    // @gt A
    /// New number of vCPUs (1–64).
    #[arg(range(min = 1, max = 64))]
    vcpus: u8,
    // @gt A
    /// New memory size in GiB, up to 512.
    #[arg(range(min = 1, max = 512))]
    memory_gb: u16,
) -> Result<Vm, CloudError> {
    Ok(Vm { vm_id, state: "stopped".into() })
}

// @gt A
/// Create or replace one DNS record in a managed zone. Writing the same record
/// twice changes nothing.
#[tool_contract(effect = reversible, idempotency = natural, authority = "dns:write")]
pub fn upsert_dns_record(
    // @gt A
    /// The zone's domain name, such as example.com.
    #[arg(format = "hostname")]
    zone_name: String,
    // @gt B: labels of letters, digits and hyphens (or `@`); no pattern declared
    /// Record name relative to the zone (`www`, `api.v2`), or `@` for the apex;
    /// labels of letters, digits and hyphens.
    #[arg(length(min = 1, max = 253))]
    record_name: String,
    // @gt C: lists SRV and CAA, which the enum does not have
    /// Record type: A, AAAA, CNAME, MX, TXT, SRV or CAA.
    record_type: RecordType,
    // @gt A
    /// The record's data, e.g. `203.0.113.7` for an A record or
    /// `lb.example.net.` for a CNAME; at most 255 characters.
    #[arg(length(min = 1, max = 255))]
    value: String,
    // @gt C: prose says from 5 minutes (300 s) to 1 day; declares range(min = 60, max = 86400)
    /// Time to live in seconds, from 5 minutes to 1 day.
    #[arg(range(min = 60, max = 86400))]
    ttl_seconds: u32,
    // @gt B: required for MX records (conditional rule not declared); 0 to 65535 is the u16's own range
    /// MX priority, 0 to 65535; required for MX records.
    priority: Option<u16>,
) -> Result<Applied, CloudError> {
    Ok(Applied { id: record_name })
}

// @gt A
/// Delete one DNS record. Resolvers may keep serving it until its TTL runs out.
#[tool_contract(
    effect = destructive,
    idempotency = natural,
    approval = always,
    authority = "dns:write"
)]
pub fn delete_dns_record(
    // @gt A
    /// Zone the record is in.
    #[arg(format = "hostname")]
    zone_name: String,
    // @gt A
    /// Name of the record to delete, relative to the zone.
    #[arg(length(min = 1, max = 253))]
    record_name: String,
) -> Result<Applied, CloudError> {
    Ok(Applied { id: record_name })
}

// @gt A
/// Create an object storage bucket in a region.
#[tool_contract(effect = reversible, idempotency = natural, authority = "storage:write")]
pub fn create_bucket(
    // @gt A
    /// Globally unique bucket name: 3 to 63 lowercase letters, digits, dots or
    /// hyphens, beginning and ending with a letter or digit.
    #[arg(pattern = "^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")]
    bucket_name: String,
    // @gt A
    /// Region such as `eu-central-1`.
    #[arg(pattern = "^[a-z]{2}-[a-z]+-[0-9]$")]
    region: String,
    // @gt C: prose says up to 7 years (2555 days); declares range(min = 1, max = 3650)
    /// Default object lock, in days, up to 7 years (2555 days).
    #[arg(range(min = 1, max = 3650))]
    retention_days: Option<u16>,
    // @gt B: values up to 63 characters; only entry count and key pattern are declared
    /// Labels as key/value pairs; at most 64, keys in lowercase, values up to
    /// 63 characters.
    #[arg(length(max = 64), pattern = "^[a-z][a-z0-9_-]{0,62}$", prose = "trial: compile error recorded")]
    labels: BTreeMap<String, String>,
) -> Result<Applied, CloudError> {
    Ok(Applied { id: bucket_name })
}

// @gt A
/// Replace a bucket's lifecycle rules: when objects move to cold storage and
/// when they are deleted.
#[tool_contract(effect = reversible, idempotency = natural, authority = "storage:write")]
pub fn set_bucket_lifecycle(
    // @gt A
    /// The bucket.
    #[arg(pattern = "^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")]
    bucket_name: String,
    // @gt B: at most 365; only range(min = 30) declared
    /// Move objects to cold storage after this many days: at least 30, at most 365.
    #[arg(range(min = 30))]
    transition_after_days: Option<u16>,
    // @gt A
    /// Delete objects this many days after they are created (1 to 36500).
    #[arg(range(min = 1, max = 36500))]
    expire_after_days: Option<u32>,
    // @gt C: prose says up to 20; declares length(max = 10)
    /// Apply only to keys under these prefixes (up to 20); all objects when empty.
    #[arg(length(max = 10), each(length(max = 1024)), prose = "trial: compile error recorded")]
    prefixes: Vec<String>,
) -> Result<Applied, CloudError> {
    Ok(Applied { id: bucket_name })
}

// @gt B: world rule, reports older than 13 months are not kept
/// Summarize a project's cloud spend by service for a month. Reports for the
/// current month are estimates and reports older than 13 months are not kept.
#[tool_contract(effect = read_only, authority = "billing:read")]
pub fn get_usage_report(
    // @gt A
    /// The project to report on.
    #[arg(pattern = "^[a-z][a-z0-9-]{4,28}[a-z0-9]$")]
    project: String,
    // @gt A
    /// Billing month as `YYYY-MM`, e.g. 2026-02.
    #[arg(pattern = "^[0-9]{4}-(0[1-9]|1[0-2])$")]
    month: String,
    // @gt B: closed set USD, EUR, GBP; only pattern ^[A-Z]{3}$ declared
    /// Currency for the amounts: USD, EUR or GBP; USD when omitted.
    #[arg(pattern = "^[A-Z]{3}$")]
    currency: Option<String>,
) -> Result<Usage, CloudError> {
    Ok(Usage { lines: vec![], estimate: false })
}
