//! The closed-set reader's cases, each with the near miss it must leave alone.

use crate::{claims, listed_sets, ClaimKind};

/// The values of every closed set found in `doc`.
fn sets(doc: &str) -> Vec<Vec<String>> {
    listed_sets(doc).into_iter().map(|(_, v)| v).collect()
}

fn no_set(doc: &str) -> bool {
    !claims(doc).iter().any(|c| c.kind == ClaimKind::ClosedSet)
}

fn values(v: &[&str]) -> Vec<Vec<String>> {
    vec![v.iter().map(|s| s.to_string()).collect()]
}

/// A fixed value after a modal with no subject of its own: "must be `x`"
/// (openai-openapi), "Can only be `x`" (box-openapi).
#[test]
fn a_modal_fixed_value() {
    assert_eq!(sets("The event type, must be `error`."), values(&["error"]));
    assert_eq!(
        sets("The type of the source that this event represents. Can only be `app_item`."),
        values(&["app_item"])
    );
    assert_eq!(
        sets("This value must be `enterprise`."),
        values(&["enterprise"])
    );
    // another argument's value, a condition, a range, a boolean
    assert!(no_set(
        "The duration. The model must be \"MiniMax-Hailuo-02\"."
    ));
    assert!(no_set("`scope` must be `global`."));
    assert!(no_set(
        "This value can only be `true` if `can_download` is also `true`."
    ));
    assert!(no_set("Quantity to order; must be `1..=99`."));
    assert!(no_set("The flag must be `false`."));
    assert!(no_set("Must be `draft` when the review is pending."));
}

/// A description opening with "The type of" that ends on its one value,
/// restated: openai-openapi ("The type of this object
/// (`container.file`).", "The type of the tool, i.e. `function`."),
/// twilio-oai ("The type of the tool. ('WEBHOOK')"), square's Connect API
/// ("The type of this event. The value is `gift_card.updated`.").
#[test]
fn a_type_restated_by_its_one_value() {
    assert_eq!(
        sets("The type of this object (`container.file`)."),
        values(&["container.file"])
    );
    assert_eq!(
        sets("The type of the tool, i.e. `function`."),
        values(&["function"])
    );
    assert_eq!(
        sets("The type of the tool. ('WEBHOOK')"),
        values(&["WEBHOOK"])
    );
    assert_eq!(
        sets("The type of this event. For this event, the value is `gift_card.updated`."),
        values(&["gift_card.updated"])
    );
    assert_eq!(
        sets("The type of this event. The value is `\"merchant.custom_attribute_definition.visible.updated\"`."),
        values(&["merchant.custom_attribute_definition.visible.updated"])
    );
    // an example, a default, advice, a member's name, a value that does
    // not end the description, another literal before it, a boolean
    assert!(no_set("The type of transfer, e.g. 'ACH'"));
    assert!(no_set(
        "The type of client application. Default value: `web`."
    ));
    assert!(no_set("The type of pattern. For regex, use `EXPRESSION`."));
    assert!(no_set(
        "The state or region component of the user's address (`region`)"
    ));
    assert!(no_set(
        "The type of this object (`file`) in the response body."
    ));
    assert!(no_set("The type of the `AppItem`."));
    assert!(no_set("The type of the `owner`. The value is `user`."));
    assert!(no_set("The type of this flag. The value is `true`."));
    assert!(no_set("Whether to stream. The value is `true` by default."));
}

/// Values opening sentences, each described by a verb known by its
/// ending: containers/kubernetes-mcp-server ("'codeblock' wraps logs
/// ... 'plain' returns raw text"), apify/actors-mcp-server ("\"first\"
/// uses first item as template, \"all\" merges all items"), box-openapi
/// ("`permanently_delete` deletes the content ... `remove_retention`
/// lifts retention policy ...").
#[test]
fn values_opening_sentences_with_any_verb() {
    assert_eq!(
        sets("Output formatting for chat. 'codeblock' wraps logs in ~~~ fences (recommended). 'plain' returns raw text like pods_log."),
        values(&["codeblock", "plain"])
    );
    assert_eq!(
        sets("Strategy for handling arrays. \"first\" uses first item as template, \"all\" merges all items. Default is \"all\"."),
        values(&["first", "all"])
    );
    assert_eq!(
        sets("The disposition action. `permanently_delete` deletes the content permanently. `remove_retention` lifts retention policy from the content."),
        values(&["permanently_delete", "remove_retention"])
    );
    // another argument's default and a following semicolon, plural nouns
    // the literal qualifies, a flag's two states, a single value
    assert!(no_set(
        "`mode` defaults to `similar` (co-citation); `citers` returns papers citing a seed. `intent` ranks candidates."
    ));
    assert!(no_set(
        "How the field is used. `query` fields match incoming events; `enriched` fields carry the data."
    ));
    assert!(no_set(
        "Whether to allow registration. `true` allows SIP Endpoints to register, `false` does not."
    ));
    assert!(no_set("The output. 'codeblock' wraps logs in fences."));
    // an example sentence between two values does not split the set
    // (plaid-openapi); a label written with its colon is no value
    assert_eq!(
        sets("The match type. `match` indicates a strong match. `partial_match` indicates an approximate match. For example, \"Knope\" vs. \"Knope-Wyatt\" for last name. `no_match` indicates no match."),
        values(&["match", "partial_match", "no_match"])
    );
    assert!(no_set(
        "`digital:` transactions that took place online. `place:` transactions that were made at a store."
    ));
}

/// Literals after a dash that follows a kind noun: agno-agi/agno ("Filter
/// by financial status - 'paid', 'pending', 'refunded' (optional)."),
/// plaid-openapi ("The pay type - `GROSS`, `NET`, or `UNKNOWN`"), HubSpot
/// ("The status of the batch processing request - \"PENDING\", ...").
#[test]
fn literals_after_a_dash_after_a_kind_noun() {
    assert_eq!(
        sets("Filter by financial status - 'paid', 'pending', 'refunded' (optional)."),
        values(&["paid", "pending", "refunded"])
    );
    assert_eq!(
        sets("The status of the request - \"PENDING\", \"PROCESSING\", \"COMPLETE\""),
        values(&["PENDING", "PROCESSING", "COMPLETE"])
    );
    // two literals, no kind noun, a list that runs on, words not quoted
    assert!(no_set("Filter by financial status - 'paid', 'pending'."));
    assert!(no_set("Filter the orders - 'paid', 'pending', 'refunded'."));
    assert!(no_set(
        "Filter by status - 'paid', 'pending', 'refunded' orders are listed first."
    ));
    assert!(no_set(
        "Filter by financial status - paid, pending, refunded."
    ));
}

/// Capital codes after an accepting word, its noun and a colon: vercel/ai
/// ("Allowed categories: TRAVEL, MEALS, ENTERTAINMENT, OFFICE SUPPLIES,
/// OTHER."), awslabs/mcp ("Valid states: SUBMITTED, PENDING, ...,
/// CANCELLED").
#[test]
fn capital_codes_after_an_accepting_lead() {
    assert_eq!(
        sets("Category of the expense. Allowed categories: TRAVEL, MEALS, ENTERTAINMENT, OFFICE SUPPLIES, OTHER."),
        values(&["TRAVEL", "MEALS", "ENTERTAINMENT", "OFFICE SUPPLIES", "OTHER"])
    );
    assert_eq!(
        sets("Filter job runs by states (optional). Valid states: SUBMITTED, PENDING, RUNNING, SUCCESS, FAILED"),
        values(&["SUBMITTED", "PENDING", "RUNNING", "SUCCESS", "FAILED"])
    );
    assert_eq!(sets("Supported regions: US or EU."), values(&["US", "EU"]));
    // a list that runs on, words not in capitals, a single code, no
    // accepting word
    assert!(no_set(
        "Valid KeywordTypes: STOP, START, HELP Valid Locales: see the list"
    ));
    assert!(no_set("Allowed categories: travel, meals, other."));
    assert!(no_set("Supported regions: US."));
    assert!(no_set("Common states: SUBMITTED, PENDING, RUNNING."));
    assert!(no_set("Valid states: SUBMITTED, PENDING and more."));
}

/// Literals the next words declare accepted: "Currently `a`, `b` and `c`
/// are supported" (openai-openapi), "Currently, `\"total\"` and `\"day\"`
/// are supported" (sendgrid-oai).
#[test]
fn literals_declared_accepted() {
    assert_eq!(
        sets("The endpoint. Currently `/v1/responses`, `/v1/embeddings`, and `/v1/videos` are supported."),
        values(&["/v1/responses", "/v1/embeddings", "/v1/videos"])
    );
    assert_eq!(
        sets("Dictates how the stats are time-sliced. Currently, `\"total\"` and `\"day\"` are supported."),
        values(&["\"total\"", "\"day\""])
    );
    // other verbs, a negation, a single literal without "only"
    assert!(no_set("`owner` and `repo` are required."));
    assert!(no_set("`csv` and `xml` are not supported."));
    assert!(no_set("`json` is supported as well."));
}

/// A parenthesis closing on its list after a noun that names a kind of
/// value: "Type of secret to create (generic, docker-registry, tls)"
/// (Flux159/mcp-server-kubernetes), "The status of the item (`completed`,
/// `incomplete`, `in_progress`)" (openai-openapi).
#[test]
fn a_kind_with_its_values_in_parentheses() {
    assert_eq!(
        sets("Type of secret to create (generic, docker-registry, tls)"),
        values(&["generic", "docker-registry", "tls"])
    );
    assert_eq!(
        sets("The status of the item (`completed`, `incomplete`, `in_progress`). These have no effect."),
        values(&["completed", "incomplete", "in_progress"])
    );
    // no kind noun, an open list, examples, two bare words, the output
    assert!(no_set(
        "The name of the configuration (alphanumeric, underscore, hyphen)"
    ));
    assert!(no_set(
        "The root (protocol, subdomain, domain) of any links."
    ));
    assert!(no_set("The type of content (files, folders, etc)"));
    assert!(no_set(
        "The type of resource in use (e.g., automation, journey, campaign)"
    ));
    assert!(no_set("The type of connection (standard, private)"));
    assert!(no_set(
        "Returns lifecycle status (new, active, inactive, launched)."
    ));
    // two words joined by a slash or "or" (github-mcp-server)
    assert_eq!(
        sets("The new state of the notification (read/done)"),
        values(&["read", "done"])
    );
    assert_eq!(
        sets("Owner type (user or org). If not provided, will be detected."),
        values(&["user", "org"])
    );
    assert!(no_set("The repository to assign tasks in (owner/repo)."));
}

/// Round 11: the values in a parenthesis read by the shape of its items,
/// literals or codes in capitals, after any noun that heads its
/// sentence, not only after a kind noun.
#[test]
fn values_in_parentheses_by_their_shape() {
    // XeroAPI/xero-mcp-server, crewAIInc/crewAI-tools (batches 12, 9)
    assert_eq!(
        sets("Optional line amount types (EXCLUSIVE, INCLUSIVE, NO_TAX), NO_TAX by default"),
        values(&["EXCLUSIVE", "INCLUSIVE", "NO_TAX"])
    );
    assert_eq!(
        sets("Compression format ('zip', 'tar', 'tar.gz', 'tar.bz2', 'tar.xz')."),
        values(&["zip", "tar", "tar.gz", "tar.bz2", "tar.xz"])
    );
    // openai-openapi, awslabs/mcp (development text)
    assert_eq!(
        sets("The role of the message sender (`user`, `assistant`, `system`), only applicable for `message` items."),
        values(&["user", "assistant", "system"])
    );
    assert_eq!(
        sets("The data aggregating function (AVERAGE, COUNT, MAXIMUM, MINIMUM, SUM, STANDARD_DEVIATION)"),
        values(&["AVERAGE", "COUNT", "MAXIMUM", "MINIMUM", "SUM", "STANDARD_DEVIATION"])
    );
    // two codes read as words (awslabs/mcp); two short ones are forms
    // or parts
    assert_eq!(
        sets("Warm tier setting (ENABLED, DISABLED)"),
        values(&["ENABLED", "DISABLED"])
    );
    assert_eq!(
        sets("Cache behavior (CACHE_ALWAYS or CACHE_ON_FAILURE)"),
        values(&["CACHE_ALWAYS", "CACHE_ON_FAILURE"])
    );
    assert!(no_set("The resource identifier (ID or ARN)"));
    assert!(no_set("Position (LAT, LON)"));
    // deeper in the sentence: another thing's values (openai-openapi,
    // PagerDuty api-schema, awslabs/mcp)
    assert!(no_set(
        "The type of error that caused the response to fail, corresponding with the `status` field (`completed`, `cancelled`, `incomplete`, `failed`)."
    ));
    assert!(no_set(
        "It combines a recurring time window with an effective date range (`effective_since`, `effective_until`)."
    ));
    assert!(no_set(
        "Must be true for destructive actions (\"remove\", \"leave\")."
    ));
    // a plural noun: its parts or the things it names (awslabs/mcp,
    // mongodb-js/mongodb-mcp-server)
    assert!(no_set(
        "The wait duration statistics (`avg`, `min`, `max`, `total`)"
    ));
    assert!(no_set(
        "Can be one of the built-in lucene analyzers (`lucene.standard`, `lucene.simple`, `lucene.whitespace`), a language-specific analyzer."
    ));
    // bare words, one word, units, examples, a parenthesis that does
    // not close its clause
    assert!(no_set("The incident visibility (public, private)"));
    assert!(no_set("The page size (optional)"));
    assert!(no_set("The timeout (seconds, minutes, hours)"));
    assert!(no_set("The output format (e.g. `json`, `csv`)"));
    assert!(no_set(
        "The root (`protocol`, `subdomain`, `domain`) of any links."
    ));
    assert!(no_set("The repository (OWNER, REPO)"));
}

/// A word between two commas of a list is a value, whatever it reads as
/// elsewhere: the "none"/"all" rule read by its position (awslabs/mcp's
/// "One of: ns, us, ms, s", which stopped at `ns`).
#[test]
fn any_word_between_commas_is_a_value() {
    assert_eq!(
        sets("The precision for the unix timestamps. One of: ns, us, ms, s (default is ns)."),
        values(&["ns", "us", "ms", "s"])
    );
    // a pronoun beside one comma still ends a word list
    assert!(no_set("Pick from: red, blue, or any."));
    assert!(no_set("Tags for this, us, and them."));
}

/// Round 11: a list that opens with a bullet marker after the lead's
/// colon goes on at the same marker, words as well as literals
/// (docusign's OpenAPI spec, three descriptions; openai-openapi's
/// "Allowed values are: - `file_search` - ...", read before by the
/// literals).
#[test]
fn bare_values_as_bullets_after_a_lead() {
    assert_eq!(
        sets("Status of the user's account. One of: * ActivationRequired * ActivationSent * Active * Closed * Disabled"),
        values(&["ActivationRequired", "ActivationSent", "Active", "Closed", "Disabled"])
    );
    assert_eq!(
        sets("The font. Supported Fonts include: - Default - Arial - OCR-A - Tahoma"),
        values(&["Default", "Arial", "OCR-A", "Tahoma"])
    );
    assert_eq!(
        sets("The type of hosted tool. Allowed values are: - `file_search` - `computer` - `code_interpreter`"),
        values(&["file_search", "computer", "code_interpreter"])
    );
    // one bullet's label, described bullets, no lead
    assert!(no_set(
        "Connector. Currently supported values are: - Dropbox: the Dropbox connector"
    ));
    assert!(no_set("Notes: - first draft - then review"));
}

/// Round 11: literals end where a bare word opens the next clause
/// after a comma (twilio-oai); "but" qualifies the list (okta
/// management spec), "etc" leaves it open.
/// Round 12: lists after a label, and the end of a list. "Supported:
/// native, hourly, hourly_3, hourly_6." (open-meteo), "Available
/// regions: us-east-1, ..." (upstash/mcp-server; "available" as the
/// accepting word of "Valid types:", dbt-labs/dbt-mcp and
/// digitalocean/openapi); "(active, ..., deleted, or all)" after "by
/// state" (sanity-io/sanity-mcp-server: "all" the last word of a comma
/// list, as "none, cheapest, fastest" was read beside a comma).
#[test]
fn lists_after_a_label() {
    assert_eq!(
        sets("Aggregate data into larger time intervals. Supported: native, hourly, hourly_3, hourly_6."),
        values(&["native", "hourly", "hourly_3", "hourly_6"])
    );
    assert_eq!(
        sets("Array of read regions. Available regions: us-east-1, us-west-1, eu-central-1"),
        values(&["us-east-1", "us-west-1", "eu-central-1"])
    );
    assert_eq!(
        sets("Filter releases by state (active, scheduled, published, archived, deleted, or all)"),
        values(&[
            "active",
            "scheduled",
            "published",
            "archived",
            "deleted",
            "all"
        ])
    );
    // not a list: "supported" inside a sentence, with no noun; "or None"
    // after literals (the null of an optional value, awslabs/mcp)
    assert!(no_set("Only three are supported: red, green, blue."));
    assert_eq!(
        sets("Sort order. Can be 'ASC', 'DESC', or None."),
        values(&["ASC", "DESC"])
    );
}

/// Round 12: a list whose last alternative is a noun phrase gives one of
/// several forms, not the set: "\"raw\", \"drafts\", \"published\", or
/// a release ID" (sanity-io/sanity-mcp-server), "'glue', 'emr',
/// 'athena', or other AWS service name" (awslabs/mcp), "Can be `always`,
/// `never`, or a filter object" (openai-openapi); not "or any
/// combination of them" (openai-openapi) nor "or an empty string"
/// (digitalocean/openapi), whose values stay the set.
#[test]
fn a_last_alternative_that_is_a_form() {
    assert!(no_set(
        "Optional perspective to query from: \"raw\", \"drafts\", \"published\", or a release ID."
    ));
    assert!(no_set(
        "Type of data processing service: 'glue', 'emr', 'athena', or other AWS service name."
    ));
    assert!(no_set("Can be `always`, `never`, or a filter object."));
    assert_eq!(
        sets("Possible values are `read`, `readwrite`, `fullaccess`, or an empty string."),
        values(&["read", "readwrite", "fullaccess"])
    );
    assert_eq!(
        sets("Possible values are `image.generation`, `image.edit` or any combination of them."),
        values(&["image.generation", "image.edit"])
    );
}

/// Round 12: a literal alone in parentheses after a plural noun that it
/// does not restate is an example of the things named: "Supports: simple
/// fields (\"title\"), nested objects (\"author.name\"), ..." (sanity-io's
/// MCP server, four descriptions); the values glossed in parentheses of
/// modelcontextprotocol/servers ("local branches ('local')"), okta ("a set
/// of groups (`GROUPS`)") and box-openapi ("anyone with the link
/// (`open`)") stay sets.
#[test]
fn a_literal_after_a_plural_noun_is_an_example() {
    assert!(no_set(
        "The path to set. Supports: simple fields (\"title\"), nested objects (\"author.name\"), and nested properties in arrays (\"items[0].title\")"
    ));
    assert_eq!(
        sets("Whether to list local branches ('local'), remote branches ('remote') or all branches ('all')."),
        values(&["local", "remote", "all"])
    );
    assert_eq!(
        sets("Whether the claim is an expression (`EXPRESSION`), a set of groups (`GROUPS`), or a system claim (`SYSTEM`)"),
        values(&["EXPRESSION", "GROUPS", "SYSTEM"])
    );
    assert_eq!(
        sets("Sort by date, ascending (`asc`) or descending (`desc`)."),
        values(&["asc", "desc"])
    );
}

/// Round 12: described bullets of any kind of value and gloss: codes of
/// digits ("Allowed values: * **01** — No suspicious activity ... *
/// **02** — ...", adyen-openapi, its emphasis seen through) and an em
/// dash after a word, as the colon of "- canceled: indicates ..."; not a
/// number that is no code ("* 2.5 - ..."), nor a word before a dash.
#[test]
fn described_bullets_of_codes_and_dashes() {
    assert_eq!(
        sets("Suspicious activity. Allowed values: * **01** \u{2014} No suspicious activity has been observed * **02** \u{2014} Suspicious activity has been observed"),
        values(&["01", "02"])
    );
    assert_eq!(
        sets("Reason. * canceled \u{2014} indicates a cancel * incorrect \u{2014} indicates an error"),
        values(&["canceled", "incorrect"])
    );
    assert!(no_set(
        "Steps. * 2.5 - the first step * 3.5 - the next step"
    ));
    assert!(no_set("Notes. * first - a draft * then - a review"));
}

/// Round 12: values described by any verb after the colon of a label
/// that opens its sentence, as after a bullet: "Operation type: \"edit\"
/// modifies existing document, \"create\" creates new document"
/// (sanity-io/sanity-mcp-server), the form of PostHog/mcp's "Display
/// format: 'number' shows ..., 'emoji' shows ..." read before by its
/// known verb; not
/// after a label deeper in the sentence, nor after a semicolon.
#[test]
fn values_described_by_a_verb_after_a_label() {
    assert_eq!(
        sets(
            "Operation type: \"edit\" modifies existing document, \"create\" creates new document."
        ),
        values(&["edit", "create"])
    );
    assert!(no_set(
        "Pick the right one for the whole operation type: \"edit\" modifies existing document, \"create\" creates new document."
    ));
    assert!(no_set(
        "`mode` defaults to `similar`; `citers` returns papers, `intent` ranks candidates"
    ));
}

/// Round 12: described bullets hold one kind of value, all literals or
/// all bare words. Once markdown emphasis is seen through,
/// PagerDuty/api-schema's "- **Users**: Direct cancellation ... **Result
/// Values**: - `cancelled`: ..." would read headings and literals as one
/// list; a list of one kind still reads (`none`/`overwrite`, the
/// development text's "- canceled: ... - incorrect: ...").
#[test]
fn described_bullets_hold_one_kind_of_value() {
    assert_eq!(
        sets("Mode. * `none` will preserve it * `overwrite` will force it"),
        values(&["none", "overwrite"])
    );
    assert_eq!(
        sets("Reason. - canceled: indicates a cancel - incorrect: indicates an error"),
        values(&["canceled", "incorrect"])
    );
    assert!(!sets(
        "Cancel requests. - **Users**: Direct cancellation - **Escalation Policies**: stops it **Result**: - `cancelled`: done - `joined`: already joined"
    )
    .iter()
    .any(|v| v.contains(&"Users".to_string())));
}

#[test]
fn literals_end_before_the_next_clause() {
    assert_eq!(
        sets("The field that fires the trigger. Can be: `count`, `usage`, or `price`, as described in the documentation."),
        values(&["count", "usage", "price"])
    );
    assert!(no_set(
        "Valid types include `pairwise` and `public`, but only `public` is currently supported."
    ));
    assert!(no_set("The type, one of `a`, `b`, etc, as listed."));
}

/// Round 11: a description that is only "Value is `x`." restates its one
/// value, as "The type of ... The value is `x`." does
/// (intercom/Intercom-OpenAPI; square's Connect API).
#[test]
fn a_description_that_is_only_its_value() {
    assert_eq!(
        sets("Value is `data_attribute`."),
        values(&["data_attribute"])
    );
    assert_eq!(sets("The value is `banner`."), values(&["banner"]));
    // a null, a condition, more text after it
    assert!(no_set(
        "Value is `null` when messages are created manually."
    ));
    assert!(no_set("Value is `null`."));
    assert!(no_set(
        "Value is `x` for the first page. Later pages differ."
    ));
}

/// Round 11: "the example to load" names the thing the value is, a
/// noun, not an example cue (neo4j-contrib/mcp-neo4j); the cues stay.
#[test]
fn the_example_as_a_noun() {
    assert_eq!(
        sets("Name of the example to load: 'patient_journey', 'supply_chain', or 'fraud_aml'"),
        values(&["patient_journey", "supply_chain", "fraud_aml"])
    );
    assert!(no_set("The mode. For example: 'fast', 'slow', or 'auto'"));
    assert!(no_set("The mode, e.g. 'fast', 'slow', or 'auto'"));
    assert!(no_set(
        "The mode. The example is: 'fast', 'slow', or 'auto'"
    ));
}

/// Round 11: a kind noun or its plural right before the parenthesis,
/// anywhere in the sentence, when the parenthesis closes its clause
/// (klaviyo/incidentio-mcp); not when the sentence goes on about the
/// cases (twilio-oai, box-openapi).
#[test]
fn a_kind_noun_right_before_the_parenthesis() {
    assert_eq!(
        sets("Accepts aliases (\"active\" → \"live\") OR direct categories (live, triage, learning, closed)."),
        values(&["live", "triage", "learning", "closed"])
    );
    assert!(no_set(
        "The media size limit is 5 MB for supported file types (`jpeg`, `jpg`, `png`, `gif`) and 500 KB for other types."
    ));
    assert!(no_set(
        "A single block. Text-bearing block types (`paragraph`, `section_title`, `callout_box`) include a `fragment` property."
    ));
    assert!(no_set("Filter by the named statuses (open, closed)."));
}

/// Round 11: a parenthesis that opens with a noun and "is" names a case
/// by another member's values (lob/lob-openapi).
#[test]
fn a_case_named_in_parentheses() {
    assert!(no_set(
        "Will not be returned for undeliverable addresses or military addresses (state is `AA`, `AE`, or `AP`)."
    ));
    // the value's own values stay
    assert_eq!(
        sets("The unit (value is `metric` or `imperial`)."),
        values(&["metric", "imperial"])
    );
    assert_eq!(
        sets("The unit, `metric` or `imperial`."),
        values(&["metric", "imperial"])
    );
}

/// Two things that could both be given name arguments, not values
/// (lob/lob-openapi, openai-openapi).
#[test]
fn either_of_two_not_both() {
    assert!(no_set(
        "Sorts items by ascending or descending dates. Use either `date_created` or `date_modified`, not both."
    ));
    assert!(no_set(
        "Nucleus sampling; use either `temperature` or `top_p`, not both."
    ));
    assert!(no_set("Set `a` or `b` but not both."));
    // a list of values stays one
    assert_eq!(
        sets("Sort order, either `asc` or `desc`. Both fields are optional."),
        values(&["asc", "desc"])
    );
}

/// "Allowed types include `a`, `b` and `c`" (box-openapi), "Current
/// available items are: `x`" (openai-openapi), "Allowed types: `a`, `b`,
/// or `c`" (sendgrid-oai): a word saying the values are accepted, their
/// noun, then "are", "include" or a colon before literals.
#[test]
fn accepted_values_named_by_their_noun() {
    assert_eq!(
        sets("The type of the nested field. Allowed types include `string`, `float` and `enum`."),
        values(&["string", "float", "enum"])
    );
    assert_eq!(
        sets("The set of items to include. Current available items are: `item.input_audio_transcription.logprobs`"),
        values(&["item.input_audio_transcription.logprobs"])
    );
    assert_eq!(
        sets("Accepted file extensions are `.jpg` or `.png`."),
        values(&[".jpg", ".png"])
    );
    // members of an object, a single literal without a colon, no literal
    assert!(no_set(
        "An update. Possible properties include 'name' and 'description'."
    ));
    assert!(no_set("Supported units are listed in `units.md`."));
    assert!(no_set(
        "Available regions are those returned by `list_regions`."
    ));
    assert!(no_set(
        "Not all file types are supported for these embed URLs."
    ));
}

/// "Values can include \"owner\", \"editor\", and \"viewer\""
/// (box-openapi), "Values can be 6 and 10" (MiniMax-MCP): "can" or "may"
/// before "be" or "include" after the "values" lead.
#[test]
fn values_can_be() {
    assert_eq!(
        sets("The collaborator level. Values can include \"owner\", \"editor\", and \"viewer\"."),
        values(&["owner", "editor", "viewer"])
    );
    assert_eq!(
        sets("The duration of the video. Values can be 6 and 10."),
        values(&["6", "10"])
    );
    assert!(no_set("Node identifier. Multiple values can be provided."));
    assert!(no_set("Values can be any string."));
    assert!(no_set("The values may be separated by commas."));
}

/// "exactly one" before a list names the member to give, not values:
/// "Exactly one of [log_group_names, log_group_identifiers] should be
/// non-null" (awslabs/mcp), "exactly one value field: 'text_value' for
/// text fields, ..." (github-mcp-server).
#[test]
fn exactly_one_member() {
    assert!(no_set(
        "CRITICAL: Exactly one of [log_group_names, log_group_identifiers] should be non-null."
    ));
    assert!(no_set("Each element must have exactly one value field: 'text_value' for text fields, 'number_value' for number fields, or 'date_value' for date fields."));
    assert!(no_set("Each entry must match exactly one reference variant: 'node_id', numeric 'item_id', or 'item_owner' + 'item_repo'."));
}

/// A word joined by a slash is a value even when it reads as a pronoun
/// elsewhere: "Region: us/eu." (heroku-mcp-server), as "Region: eu/apac."
#[test]
fn slash_joined_words_are_values() {
    assert_eq!(sets("Region: us/eu. Default: us."), values(&["us", "eu"]));
    assert!(no_set("Tell us/them what you need."));
    assert!(no_set("Ask us about the region."));
}

/// Values after "`name` [field] set to" are a member's: "Must include a
/// 'type' field set to 'object' or 'text'" (exa-mcp-server), like "with
/// a `stream_type` of `admin_logs` or `admin_logs_streaming`" (box-openapi).
#[test]
fn a_members_values() {
    assert!(no_set(
        "JSON schema. Must include a 'type' field set to 'object' or 'text'."
    ));
    assert!(no_set(
        "Used with a `stream_type` of `admin_logs` or `admin_logs_streaming`."
    ));
    assert!(no_set("Requires `mode` set to `fast` or `slow`."));
    // the argument's own values after "set to" stay a set
    assert_eq!(sets("Set to `asc` or `desc`."), values(&["asc", "desc"]));
}

/// Literals followed by "fields", "parameters", ... name members:
/// "Currently only `text` (...) and `checked` (...) fields can be updated"
/// (notion-mcp-server), "Only `ID` and `type` fields are required"
/// (box-openapi).
#[test]
fn literals_naming_members() {
    assert!(no_set("Currently only `text` (for supported block types) and `checked` (for `to_do` blocks) fields can be updated."));
    assert!(no_set("Only `ID` and `type` fields are required."));
    assert!(no_set(
        "Passing `sort`, `direction`, or `limit` parameters in query."
    ));
    assert_eq!(
        sets("Only `ID` or `type` are accepted."),
        values(&["ID", "type"])
    );
}

/// Keys of a JSON object written in the prose are not values:
/// 'using {"id": 123, "value": ...} or {"name": ...}' (github-mcp-server),
/// 'For CSV: {"fileFormat": {"csv": ...}}' (awslabs/mcp).
#[test]
fn json_object_keys() {
    assert!(no_set("The value to apply, using {\"id\": 123, \"value\": ...} or {\"name\": \"Status\", \"value\": ...}; null clears it."));
    assert!(no_set("Job configuration. For CSV: {\"fileFormat\": {\"csv\": {\"columnNames\": [\"ALIAS\", \"ASSET_ID\", ...]}}}"));
    // a list after the object is still read
    assert_eq!(
        sets("Pass {\"a\": 1}. Mode: `fast` or `slow`."),
        values(&["fast", "slow"])
    );
}

/// A slash next to a comma or "or" in a word list joins the parts of one
/// item: "the request path (elicitation/create, default)"
/// (modelcontextprotocol/servers), "(start/end, numbered visits, POI
/// pins, etc.)" (mapbox/mcp-server). A slash alone still lists values.
#[test]
fn a_slash_inside_an_item() {
    assert!(no_set("Supports two mechanisms: the request path (elicitation/create, default) which awaits the response."));
    assert!(no_set(
        "Inline point markers (start/end, numbered, pinned)."
    ));
    assert_eq!(
        sets("Features include customizable search depth (basic/advanced/fast/ultra-fast)."),
        values(&["basic", "advanced", "fast", "ultra-fast"])
    );
}

/// "none" and "all" between commas are values: "One of: none, cheapest,
/// fastest" (digitalocean/openapi), "Valid values: ALL, PENDING, RUNNING"
/// and "AWS_LAMBDA, HTTP, NONE, RELATIONAL_DATABASE" (awslabs/mcp).
#[test]
fn none_and_all_in_a_comma_list() {
    assert_eq!(
        sets("One of: none, cheapest, fastest"),
        values(&["none", "cheapest", "fastest"])
    );
    assert_eq!(
        sets("Filter to apply. Valid values: ALL, PENDING, RUNNING, FAILED"),
        values(&["ALL", "PENDING", "RUNNING", "FAILED"])
    );
    assert_eq!(
        sets(
            "The type of the DataSource. Valid values: AWS_LAMBDA, HTTP, NONE, RELATIONAL_DATABASE"
        ),
        values(&["AWS_LAMBDA", "HTTP", "NONE", "RELATIONAL_DATABASE"])
    );
    // joined by "or", or words of the sentence
    assert!(no_set("Return either all or none of the results."));
    assert!(no_set("Options: all of the above."));
    assert!(no_set("The values: none."));
}

/// A gloss in parentheses after each value does not end the list:
/// "Allowed values are 'mobile' (to sign users out of the mobile app) and
/// 'web' (...)" (PagerDuty api-schema), "Allowed values: LOCAL (mount
/// local EBS ...) or SHARED (use shared scratch storage)" and "Options:
/// \"internal\" (private VPC only) or \"internet-facing\" (public access)"
/// (awslabs/mcp); the list used to stop at its first value.
#[test]
fn a_gloss_after_each_value() {
    assert_eq!(
        sets("The type of OAuth delegations. Allowed values are 'mobile' (to sign users out of the mobile app) and 'web' (to sign users out of the web app)."),
        values(&["mobile", "web"])
    );
    assert_eq!(
        sets("Scratch storage mode. Allowed values: LOCAL (mount local EBS scratch storage) or SHARED (use shared scratch storage). Defaults to LOCAL."),
        values(&["LOCAL", "SHARED"])
    );
    assert_eq!(
        sets("AWS load balancer scheme. Options: \"internal\" (private VPC only) or \"internet-facing\" (public access)."),
        values(&["internal", "internet-facing"])
    );
    // the last gloss still ends the list; bare words after "either"
    // name members ("with either inlineSettings (list of up to 100 run
    // configs) or s3UriSettings (S3 URI for configs)", awslabs/mcp)
    assert_eq!(
        sets("Options: `a` (fast), `b` (slow). Use `a` mostly."),
        values(&["a", "b"])
    );
    assert!(no_set(
        "Batch run settings with either inlineSettings (list of run configs) or s3UriSettings (S3 URI for configs)."
    ));
    // forms of a date are formats, not values, when any of them has
    // placeholders ("in the following formats: `YYYY-MM-DD` (...),
    // `<=YYYY-MM-DD` (...), and `>=YYYY-MM-DD` (...)", twilio-oai)
    assert!(no_set("Filter by date. Accepts dates in the following formats: `YYYY-MM-DD` (on a date), `<=YYYY-MM-DD` (on and before), and `>=YYYY-MM-DD` (on and after)."));
}

/// A member noun before the colon makes the list a list of members:
/// "Filtering supports the following properties: `id`, `type`, ..."
/// (okta management spec), "Dictionary with supported keys: \"Type\",
/// \"Name\", ..." (awslabs/mcp), "You may not override the following
/// headers: `x-sg-id`, ..." (sendgrid-oai), "the expression can include
/// the following worker fields: `sid`, ..." (twilio-oai).
#[test]
fn members_named_before_a_colon() {
    assert!(no_set("Filter expression for groups. Filtering supports the following limited number of properties: `id`, `type`, `lastUpdated`, and `lastMembershipUpdated`."));
    assert!(no_set("Service key attributes. Dictionary with supported keys: \"Type\", \"Name\", \"Environment\"."));
    assert!(no_set("Handling instructions. You may not override the following headers: `x-sg-id`, `received`, `To`, `From`."));
    assert!(no_set("Filter by Workers. The expression can include the following worker fields: `sid`, `friendly_name`, or `activity_name`"));
    assert!(no_set("KMS configuration. An object with keys: \"keyType\" (either \"CustomerManagedKey\" or \"ServiceManagedKey\") and \"kmsKeyArn\"."));
    // the next sentence is read again, and other nouns keep their list
    assert_eq!(
        sets("An object with keys: `a`, `b`. Mode: `fast` or `slow`."),
        values(&["fast", "slow"])
    );
    assert_eq!(
        sets("The sort field. Sort keys are: `name`, `size`, `date`."),
        values(&["name", "size", "date"])
    );
    // a member's dotted path does not end the list (kubernetes-mcp-server),
    // a full stop before a space still does
    assert!(no_set("Field selector. Supported fields: metadata.name, spec.nodeName, status.phase (Pending/Running/Failed), status.podIP."));
    assert_eq!(
        sets("Supported fields: metadata.name, status.podIP. Phase (Pending/Running/Failed)."),
        values(&["Pending", "Running", "Failed"])
    );
}

/// A lead before values described one by one reads them all, not the
/// first alone: "Can be: `inbound` for inbound calls, `outbound-api` for
/// calls initiated via the REST API or `outbound-dial` for ..."
/// (twilio-oai), "One of the supported ops: `add`: Add a new claim
/// `replace`: Modify any element" (okta management spec).
#[test]
fn a_lead_before_described_values() {
    assert_eq!(
        sets("The direction of the call. Can be: `inbound` for inbound calls, `outbound-api` for calls initiated via the REST API or `outbound-dial` for calls initiated by a dial verb."),
        values(&["inbound", "outbound-api", "outbound-dial"])
    );
    assert_eq!(
        sets("The name of one of the supported ops: `add`: Add a new claim to the assertion `replace`: Modify any element of the assertion"),
        values(&["add", "replace"])
    );
    // the finding starts at the first value, so a condition before the
    // parenthesis does not swallow it (okta management spec)
    assert_eq!(
        sets("Indicates if the assignment is direct (`USER`) or by group membership (`GROUP`)."),
        values(&["USER", "GROUP"])
    );
    // a single value keeps its own reading; advice is not a list
    assert_eq!(sets("Can be: `asc` only."), values(&["asc"]));
    assert!(no_set(
        "The client. Options: use `openai.OpenAI` for blocking mode, `AsyncOpenAI` for async."
    ));
}

/// Literals after "for" and before their noun name the cases the
/// argument serves: "Compression level for `jpeg` or `webp` output."
/// (openai-openapi), "Required for `move` or `copy` operations"
/// (box-openapi), "The phone number for a `call` or `sms` authenticator
/// enrollment" (okta management spec).
#[test]
fn cases_named_after_for() {
    assert!(no_set("Compression level for `jpeg` or `webp` output."));
    assert!(no_set(
        "The location to copy a value from. Required for `move` or `copy` operations."
    ));
    assert!(no_set(
        "The phone number for a `call` or `sms` authenticator enrollment."
    ));
    // values that end the clause stay a set
    assert_eq!(
        sets("Optimize route for 'FastestRoute' or 'ShortestRoute' (default: 'FastestRoute')"),
        values(&["FastestRoute", "ShortestRoute"])
    );
    assert_eq!(
        sets("Sort order for results, `asc` or `desc`."),
        values(&["asc", "desc"])
    );
}

/// Literals followed by "of the" name members of that thing: "The `sid`
/// or `unique_name` of the Service resource to fetch" (twilio-oai), "`id`
/// or `label` of the role" (okta management spec).
#[test]
fn members_of_the_thing_named_after() {
    assert!(no_set(
        "The `sid` or `unique_name` of the Service resource to fetch."
    ));
    assert!(no_set("`id` or `label` of the role"));
    // values followed by something else stay a set
    assert_eq!(
        sets("The sort order, `asc` or `desc`, of results."),
        values(&["asc", "desc"])
    );
    assert_eq!(sets("One of `asc` or `desc`."), values(&["asc", "desc"]));
}

/// The default closing a list of literals is one of its values:
/// twilio-oai ("Can be: `GET` or `POST` and defaults to `POST`"),
/// intercom/Intercom-OpenAPI ("Can be \"five9\", \"zoom_phone\", or
/// defaults to \"aws_connect\"").
#[test]
fn a_default_closing_the_list() {
    assert_eq!(
        sets("The HTTP method to call `sms_url`. Can be: `GET` or `POST` and defaults to `POST`."),
        values(&["GET", "POST"])
    );
    assert_eq!(
        sets(
            "Source of the call. Can be \"five9\", \"zoom_phone\", or defaults to \"aws_connect\""
        ),
        values(&["five9", "zoom_phone", "aws_connect"])
    );
    // a default that is no literal, names of members, another value's default
    assert!(no_set(
        "Each entry must declare its own `auth_type`/`auth_token` or defaults to no auth."
    ));
    assert_eq!(
        sets("The mode, `fast` or `slow`. `mode` defaults to `fast`."),
        values(&["fast", "slow"])
    );
}

/// Values each described by what it is for, "`v` to <verb> ...":
/// Doist/todoist-ai ("\"completion\" to get tasks by completion date
/// (...), \"due\" to get tasks by due date (...)"), awslabs/mcp ("\"new\"
/// to open a new tab, \"select\" to switch to a tab by index").
#[test]
fn values_described_by_what_they_are_for() {
    assert_eq!(
        sets("The method to use to get the tasks: \"completion\" to get tasks by completion date (ie, when the task was actually completed), \"due\" to get tasks by due date."),
        values(&["completion", "due"])
    );
    assert_eq!(
        sets("The tab action: \"new\" to open a new tab, \"select\" to switch to a tab by index."),
        values(&["new", "select"])
    );
    // a flag's states, a change of value, advice, members named by their noun
    assert!(no_set(
        "Whether to record the call. Can be `true` to record the phone call, or `false` to not."
    ));
    assert!(no_set(
        "Whether to enable multi-tasking. Can be: `true` to enable multi-tasking, or `false` to disable it."
    ));
    assert!(no_set("Change `foo` to `bar` in the config."));
    assert!(no_set("Set `a` to enable it, `b` to disable it."));
    assert!(no_set("The field `name` to sort by, and `order` to apply."));
}

/// A fixed value after "always set to" (openai-openapi: "this property is
/// always set to `drag`") or "always has the value"
/// (intercom/Intercom-OpenAPI: "Always has the value `banner`."), as
/// "will always be `comment`" (box-openapi).
#[test]
fn always_set_to_a_value() {
    assert_eq!(
        sets("Specifies the event type. For a drag action, this property is always set to `drag`."),
        values(&["drag"])
    );
    assert_eq!(
        sets("String representing the object's type. Always has the value `banner`."),
        values(&["banner"])
    );
    // a member named before, a boolean, a number
    assert!(no_set(
        "By default, the `data.action.credential` is always set to `UNVERIFIED`."
    ));
    assert!(no_set(
        "Indicates if sign-in is supported and is always set to `true`."
    ));
    assert!(no_set(
        "The step number. Currently unused and always set to `0`."
    ));
}

/// Bare words after an accepting word, its noun and a colon:
/// dbt-labs/dbt-mcp ("Valid types: Model, Source, ..., Test."),
/// digitalocean/openapi ("Allowed types: agent, llm, tool, retriever"),
/// awslabs/mcp ("Valid operations: GetItem, Query, Scan").
#[test]
fn words_after_an_accepting_lead_and_a_colon() {
    assert_eq!(
        sets("Resource types to include. Valid types: Model, Source, Seed, SavedQuery, Test."),
        values(&["Model", "Source", "Seed", "SavedQuery", "Test"])
    );
    assert_eq!(
        sets("Allowed types: agent, llm, tool, retriever"),
        values(&["agent", "llm", "tool", "retriever"])
    );
    assert_eq!(
        sets("Valid operations: GetItem, Query, Scan"),
        values(&["GetItem", "Query", "Scan"])
    );
    // characters, a sentence, a single word, a list that runs on
    assert!(no_set("Allowed characters: letters, digits and hyphens."));
    assert!(no_set(
        "Supported regions: see the documentation for a list."
    ));
    assert!(no_set("Valid types: Model."));
    assert!(no_set(
        "Supported databases: MySQL, PostgreSQL, SQL Server, Oracle"
    ));
}

/// Characters described one by one are operators the value may hold, not
/// its values (buildkite/buildkite-mcp-server), as "must not contain `<`,
/// `>` or `&`" (the real corpus) in a plain list.
#[test]
fn characters_described_one_by_one() {
    assert!(no_set(
        "Filter by tags in key:value form. Values support '!' for exclusion and '*' for prefix matching."
    ));
    assert!(no_set("The name. Must not contain `<`, `>` or `&`."));
    // words described one by one stay values
    assert_eq!(
        sets("Can be: `inbound` for inbound calls, `outbound-api` for calls initiated via the REST API"),
        values(&["inbound", "outbound-api"])
    );
}

/// A parenthesis of examples after a word ("(optional, e.g., 'view',
/// 'table')", dbt-labs/dbt-mcp) is no set, as "(e.g., a, b, c)".
#[test]
fn a_parenthesis_running_into_examples() {
    assert!(no_set(
        "The materialization type for the model config block (optional, e.g., 'view', 'table')"
    ));
    assert_eq!(
        sets("Type of secret to create (generic, docker-registry, tls)"),
        values(&["generic", "docker-registry", "tls"])
    );
}

/// "Common <things>:" introduces typical values, examples: neo4j-contrib/mcp-neo4j
/// ("Common types: 'person', 'company', ..."), render-oss/render-mcp-server
/// ("Common values: 0.5 (median), ..."), as redis/mcp-redis's "Common
/// patterns:" (patterns).
#[test]
fn common_values_are_examples() {
    assert!(no_set(
        "Category or classification of the entity. Common types: 'person', 'company', 'location', 'concept', 'event'"
    ));
    assert!(no_set(
        "The quantile of HTTP latency to fetch. Common values: 0.5 (median), 0.95 (95th percentile), 0.99 (99th percentile)."
    ));
    // accepted values, a list in the next sentence, a singular label stay sets
    assert_eq!(
        sets("The entity type. Supported types: 'person', 'company', 'location'"),
        values(&["person", "company", "location"])
    );
    assert_eq!(
        sets("Common types are listed below. One of `a`, `b` or `c`."),
        values(&["a", "b", "c"])
    );
    assert_eq!(
        sets("Common name: one of `cn`, `dn` or `uid`."),
        values(&["cn", "dn", "uid"])
    );
}

/// The new shapes stay silent in examples, outputs, conditions and
/// defaults, like the older ones.
#[test]
fn new_shapes_keep_the_shared_negatives() {
    assert!(no_set(
        "For example, allowed types include `string` and `float`."
    ));
    assert!(no_set(
        "e.g. `alpha`, `beta` and `gamma` are supported by some servers."
    ));
    assert!(no_set(
        "Returns the status of the item (`completed`, `incomplete`, `in_progress`)."
    ));
    assert!(no_set("When the type is `file`, the value must be `x`."));
    assert!(no_set("Defaults to `auto`."));
    assert!(no_set(
        "If `a` and `b` are supported, the request succeeds."
    ));
}
