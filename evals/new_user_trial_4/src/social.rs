//! Social media scheduling tools.
#![allow(unused_variables, dead_code)]

use contract_runtime::prelude::*;
use serde::Serialize;

/// A scheduled post.
#[derive(Serialize, JsonSchema)]
pub struct ScheduledPost {
    /// The post's id.
    pub post_id: String,
    /// When it will be published, RFC 3339.
    pub publish_at: String,
}

/// Posts waiting to be published.
#[derive(Serialize, JsonSchema)]
pub struct PostList {
    /// The posts, in publish order.
    pub posts: Vec<ScheduledPost>,
}

/// Numbers of one post.
#[derive(Serialize, JsonSchema)]
pub struct Analytics {
    /// Metric name and value.
    pub values: Vec<(String, u64)>,
}

/// A plain acknowledgement.
#[derive(Serialize, JsonSchema)]
pub struct Done {
    /// The id of what was changed.
    pub id: String,
}

/// Why a scheduling tool could not do what was asked.
#[derive(Debug, ToolFailure)]
pub enum SocialError {
    /// No post has this id.
    #[failure(code = "no-such-post", repair = "list the scheduled posts to find its id")]
    NoSuchPost,
    /// The network refused the request.
    #[failure(code = "network-refused")]
    Refused,
    /// The network's API is rate limiting us.
    #[failure(code = "rate-limited", transient, retry_after_ms = 60000)]
    RateLimited,
}

// @gt A
/// A social network the workspace can post to.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Network {
    // @gt A
    /// X (formerly Twitter).
    X,
    // @gt A
    /// Instagram business accounts.
    Instagram,
    // @gt A
    /// LinkedIn company pages.
    Linkedin,
    // @gt A
    /// Facebook pages.
    Facebook,
    // @gt A
    /// A Mastodon instance.
    Mastodon,
}

// @gt A
/// Where a post is in its life.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum PostStatus {
    // @gt A
    /// Waiting for its time.
    Scheduled,
    // @gt A
    /// Being sent to the network right now.
    Publishing,
    // @gt A
    /// Live on the network.
    Published,
    // @gt A
    /// The network refused it.
    Failed,
}

// @gt A
/// An engagement number.
#[derive(ToolArgs)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    // @gt A
    /// Times the post was shown.
    Impressions,
    // @gt A
    /// Likes or reactions.
    Likes,
    // @gt A
    /// Shares, reposts or boosts.
    Shares,
    // @gt A
    /// Comments and replies.
    Comments,
    // @gt A
    /// Link clicks.
    Clicks,
    // @gt A
    /// Saves or bookmarks.
    Saves,
}

// @gt B: world rule, at most 5 scheduled posts per account per day
/// Schedule a post on one of the brand's accounts. No account may have more
/// than 5 scheduled posts on one day.
#[tool_contract(
    effect = external,
    idempotency = key(post_key),
    approval = never,
    authority = "social:publish"
)]
pub fn schedule_post(
    // @gt A
    /// The account to post from, an `acc_` id.
    #[arg(pattern = "^acc_[a-z0-9]{8}$")]
    account_id: String,
    // @gt C: lists x, instagram, linkedin, tiktok; the enum has x, instagram, linkedin, facebook, mastodon
    /// Network: x, instagram, linkedin or tiktok.
    network: Network,
    // @gt A
    /// The post's text, 1 to 3000 characters; links count in full.
    #[arg(length(min = 1, max = 3000))]
    text: String,
    // @gt B: at least 10 minutes in the future and within 90 days; no range declared
    /// When to publish, an ISO 8601 date-time at least 10 minutes in the future
    /// and within the next 90 days.
    publish_at: chrono::DateTime<chrono::Utc>,
    // @gt C: prose says up to 10; declares length(max = 4)
    /// Images or video to attach: up to 10 URLs.
    #[arg(length(max = 4), each(format = "uri"), prose = "trial: compile error recorded")]
    media_urls: Vec<String>,
    // @gt A
    /// Client-generated UUID; resending it returns the post already scheduled.
    #[arg(format = "uuid")]
    post_key: String,
) -> Result<ScheduledPost, SocialError> {
    Err(SocialError::Refused)
}

// @gt A
/// List the posts waiting to be published, in publish order.
#[tool_contract(
    effect = read_only,
    authority = "social:read",
    rules(le(from, to), max_span(from, to, 31 days))
)]
pub fn list_scheduled_posts(
    // @gt A
    /// Earliest publish date to include.
    from: Option<chrono::NaiveDate>,
    // @gt C: prose says at most 60 days after `from`; rule declares max_span(from, to, 31 days)
    /// Latest publish date to include; at most 60 days after `from`.
    to: Option<chrono::NaiveDate>,
    // @gt A
    /// Filter by status (scheduled, publishing, published or failed).
    status: Option<PostStatus>,
) -> Result<PostList, SocialError> {
    Ok(PostList { posts: vec![] })
}

// @gt A
/// Move a scheduled post to a new publish time.
#[tool_contract(effect = reversible, idempotency = natural, authority = "social:publish")]
pub fn reschedule_post(
    // @gt A
    /// The post, `post_` and 12 hex digits.
    #[arg(pattern = "^post_[0-9a-f]{12}$")]
    post_id: String,
    // @gt A
    /// The new publish time (RFC 3339, e.g. 2026-05-04T09:00:00Z).
    new_time: chrono::DateTime<chrono::Utc>,
) -> Result<Done, SocialError> {
    Ok(Done { id: post_id })
}

// @gt A
/// Delete a scheduled or published post from the network and from the
/// calendar. Deleted posts cannot be recovered.
#[tool_contract(
    effect = destructive + external,
    idempotency = natural,
    approval = always,
    authority = "social:publish"
)]
pub fn delete_post(
    // @gt A
    /// Which post to delete.
    #[arg(pattern = "^post_[0-9a-f]{12}$")]
    post_id: String,
) -> Result<Done, SocialError> {
    Ok(Done { id: post_id })
}

// @gt B: world rule, only posts published in the last 2 years
/// Engagement numbers of one published post. Analytics are only available for
/// posts published in the last 2 years.
#[tool_contract(effect = read_only, authority = "social:read")]
pub fn get_post_analytics(
    // @gt A
    /// Post to report on.
    #[arg(pattern = "^post_[0-9a-f]{12}$")]
    post_id: String,
    // @gt C: lists 4 of the 6 metrics and says 1 to 4; declares length(min = 1, max = 6) and 6 variants
    /// Which numbers to return (impressions, likes, shares, comments); pick 1 to 4.
    #[arg(length(min = 1, max = 6), unique)]
    metrics: Vec<Metric>,
    // @gt A
    /// Days of history, 1 to 730 (two years).
    #[arg(range(min = 1, max = 730))]
    days: Option<u16>,
) -> Result<Analytics, SocialError> {
    Ok(Analytics { values: vec![] })
}

// @gt A
/// Reply publicly to a comment on one of the brand's posts, as the brand.
#[tool_contract(
    effect = external,
    idempotency = key(reply_key),
    approval = never,
    authority = "social:reply"
)]
pub fn reply_to_comment(
    // @gt B: prefix `cmt_`; no pattern declared
    /// The comment, an id beginning with `cmt_`.
    comment_id: String,
    // @gt C: prose says at most 280 characters; declares length(min = 1, max = 500)
    /// Reply text, at most 280 characters.
    #[arg(length(min = 1, max = 500), prose = "trial: compile error recorded")]
    text: String,
    // @gt A
    /// UUID for this reply.
    #[arg(format = "uuid")]
    reply_key: String,
) -> Result<Done, SocialError> {
    Ok(Done { id: reply_key })
}

// @gt A
/// Connect a social network account to the workspace using an OAuth
/// authorization code.
#[tool_contract(effect = reversible, idempotency = none, authority = "social:admin")]
pub fn connect_account(
    // @gt A
    /// Network of the account.
    network: Network,
    // @gt A
    /// The OAuth authorization code from the redirect (20 to 512 characters); used once.
    #[arg(length(min = 20, max = 512), secret)]
    auth_code: String,
    // @gt B: 2 to 30 characters; no length declared
    /// Name shown in the calendar; 2 to 30 characters.
    display_name: Option<String>,
    // @gt B: must be a valid IANA zone name; nothing declared
    /// IANA time zone of the account, such as `Europe/Berlin`; must be a valid
    /// zone name.
    timezone: String,
) -> Result<Done, SocialError> {
    Ok(Done { id: String::new() })
}
