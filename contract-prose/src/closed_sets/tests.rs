//! The closed-set reader's cases, each with the near miss it must leave alone.

use crate::{claims, listed_sets, ClaimKind};

/// The values of every closed set found in `doc`.
fn sets(doc: &str) -> Vec<Vec<String>> {
    listed_sets(doc).into_iter().map(|s| s.values).collect()
}

fn no_set(doc: &str) -> bool {
    !claims(doc).iter().any(|c| c.kind == ClaimKind::ClosedSet)
}

fn values(v: &[&str]) -> Vec<Vec<String>> {
    vec![v.iter().map(|s| s.to_string()).collect()]
}

/// Each `(doc, values)`: the one set read in `doc` has these values.
fn sets_are(cases: &[(&str, &[&str])]) {
    for (doc, want) in cases {
        assert_eq!(sets(doc), values(want), "{doc}");
    }
}

/// No closed set is read in any of `docs`.
fn no_sets(docs: &[&str]) {
    for doc in docs {
        assert!(no_set(doc), "{doc}");
    }
}

/// A fixed value after a modal with no subject of its own: "must be `x`"
/// (openai-openapi), "Can only be `x`" (box-openapi).
#[test]
fn a_modal_fixed_value() {
    sets_are(&[
        ("The event type, must be `error`.", &["error"]),
        (
            "The type of the source that this event represents. Can only be `app_item`.",
            &["app_item"],
        ),
        ("This value must be `enterprise`.", &["enterprise"]),
    ]);
    // another argument's value, a condition, a range, a boolean
    no_sets(&[
        "The duration. The model must be \"MiniMax-Hailuo-02\".",
        "`scope` must be `global`.",
        "This value can only be `true` if `can_download` is also `true`.",
        "Quantity to order; must be `1..=99`.",
        "The flag must be `false`.",
        "Must be `draft` when the review is pending.",
    ]);
}

/// A description opening with "The type of" that ends on its one value,
/// restated: openai-openapi ("The type of this object
/// (`container.file`).", "The type of the tool, i.e. `function`."),
/// twilio-oai ("The type of the tool. ('WEBHOOK')"), square's Connect API
/// ("The type of this event. The value is `gift_card.updated`.").
#[test]
fn a_type_restated_by_its_one_value() {
    sets_are(&[
        ("The type of this object (`container.file`).", &["container.file"]),
        ("The type of the tool, i.e. `function`.", &["function"]),
        ("The type of the tool. ('WEBHOOK')", &["WEBHOOK"]),
        ("The type of this event. For this event, the value is `gift_card.updated`.", &["gift_card.updated"]),
        ("The type of this event. The value is `\"merchant.custom_attribute_definition.visible.updated\"`.", &["merchant.custom_attribute_definition.visible.updated"]),
    ]);
    // an example, a default, advice, a member's name, a value that does
    // not end the description, another literal before it, a boolean
    no_sets(&[
        "The type of transfer, e.g. 'ACH'",
        "The type of client application. Default value: `web`.",
        "The type of pattern. For regex, use `EXPRESSION`.",
        "The state or region component of the user's address (`region`)",
        "The type of this object (`file`) in the response body.",
        "The type of the `AppItem`.",
        "The type of the `owner`. The value is `user`.",
        "The type of this flag. The value is `true`.",
        "Whether to stream. The value is `true` by default.",
    ]);
}

/// Values opening sentences, each described by a verb known by its
/// ending: containers/kubernetes-mcp-server ("'codeblock' wraps logs
/// ... 'plain' returns raw text"), apify/actors-mcp-server ("\"first\"
/// uses first item as template, \"all\" merges all items"), box-openapi
/// ("`permanently_delete` deletes the content ... `remove_retention`
/// lifts retention policy ...").
#[test]
fn values_opening_sentences_with_any_verb() {
    sets_are(&[
        ("Output formatting for chat. 'codeblock' wraps logs in ~~~ fences (recommended). 'plain' returns raw text like pods_log.", &["codeblock", "plain"]),
        ("Strategy for handling arrays. \"first\" uses first item as template, \"all\" merges all items. Default is \"all\".", &["first", "all"]),
        ("The disposition action. `permanently_delete` deletes the content permanently. `remove_retention` lifts retention policy from the content.", &["permanently_delete", "remove_retention"]),
    ]);
    // another argument's default and a following semicolon, plural nouns
    // the literal qualifies, a flag's two states, a single value
    no_sets(&[
        "`mode` defaults to `similar` (co-citation); `citers` returns papers citing a seed. `intent` ranks candidates.",
        "How the field is used. `query` fields match incoming events; `enriched` fields carry the data.",
        "Whether to allow registration. `true` allows SIP Endpoints to register, `false` does not.",
        "The output. 'codeblock' wraps logs in fences.",
    ]);
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
    sets_are(&[
        (
            "Filter by financial status - 'paid', 'pending', 'refunded' (optional).",
            &["paid", "pending", "refunded"],
        ),
        (
            "The status of the request - \"PENDING\", \"PROCESSING\", \"COMPLETE\"",
            &["PENDING", "PROCESSING", "COMPLETE"],
        ),
    ]);
    // two literals, no kind noun, a list that runs on, words not quoted
    no_sets(&[
        "Filter by financial status - 'paid', 'pending'.",
        "Filter the orders - 'paid', 'pending', 'refunded'.",
        "Filter by status - 'paid', 'pending', 'refunded' orders are listed first.",
        "Filter by financial status - paid, pending, refunded.",
    ]);
}

/// Capital codes after an accepting word, its noun and a colon: vercel/ai
/// ("Allowed categories: TRAVEL, MEALS, ENTERTAINMENT, OFFICE SUPPLIES,
/// OTHER."), awslabs/mcp ("Valid states: SUBMITTED, PENDING, ...,
/// CANCELLED").
#[test]
fn capital_codes_after_an_accepting_lead() {
    sets_are(&[
        ("Category of the expense. Allowed categories: TRAVEL, MEALS, ENTERTAINMENT, OFFICE SUPPLIES, OTHER.", &["TRAVEL", "MEALS", "ENTERTAINMENT", "OFFICE SUPPLIES", "OTHER"]),
        ("Filter job runs by states (optional). Valid states: SUBMITTED, PENDING, RUNNING, SUCCESS, FAILED", &["SUBMITTED", "PENDING", "RUNNING", "SUCCESS", "FAILED"]),
        ("Supported regions: US or EU.", &["US", "EU"]),
    ]);
    // a list that runs on, words not in capitals, a single code, no
    // accepting word
    no_sets(&[
        "Valid KeywordTypes: STOP, START, HELP Valid Locales: see the list",
        "Allowed categories: travel, meals, other.",
        "Supported regions: US.",
        "Common states: SUBMITTED, PENDING, RUNNING.",
        "Valid states: SUBMITTED, PENDING and more.",
    ]);
}

/// Literals the next words declare accepted: "Currently `a`, `b` and `c`
/// are supported" (openai-openapi), "Currently, `\"total\"` and `\"day\"`
/// are supported" (sendgrid-oai).
#[test]
fn literals_declared_accepted() {
    sets_are(&[
        ("The endpoint. Currently `/v1/responses`, `/v1/embeddings`, and `/v1/videos` are supported.", &["/v1/responses", "/v1/embeddings", "/v1/videos"]),
        ("Dictates how the stats are time-sliced. Currently, `\"total\"` and `\"day\"` are supported.", &["\"total\"", "\"day\""]),
    ]);
    // other verbs, a negation, a single literal without "only"
    no_sets(&[
        "`owner` and `repo` are required.",
        "`csv` and `xml` are not supported.",
        "`json` is supported as well.",
    ]);
}

/// A parenthesis closing on its list after a noun that names a kind of
/// value: "Type of secret to create (generic, docker-registry, tls)"
/// (Flux159/mcp-server-kubernetes), "The status of the item (`completed`,
/// `incomplete`, `in_progress`)" (openai-openapi).
#[test]
fn a_kind_with_its_values_in_parentheses() {
    sets_are(&[
        ("Type of secret to create (generic, docker-registry, tls)", &["generic", "docker-registry", "tls"]),
        ("The status of the item (`completed`, `incomplete`, `in_progress`). These have no effect.", &["completed", "incomplete", "in_progress"]),
    ]);
    // no kind noun, an open list, examples, two bare words, the output
    no_sets(&[
        "The name of the configuration (alphanumeric, underscore, hyphen)",
        "The root (protocol, subdomain, domain) of any links.",
        "The type of content (files, folders, etc)",
        "The type of resource in use (e.g., automation, journey, campaign)",
        "The type of connection (standard, private)",
        "Returns lifecycle status (new, active, inactive, launched).",
    ]);
    // two words joined by a slash or "or" (github-mcp-server)
    sets_are(&[
        (
            "The new state of the notification (read/done)",
            &["read", "done"],
        ),
        (
            "Owner type (user or org). If not provided, will be detected.",
            &["user", "org"],
        ),
    ]);
    assert!(no_set("The repository to assign tasks in (owner/repo)."));
}

/// Round 11: the values in a parenthesis read by the shape of its items,
/// literals or codes in capitals, after any noun that heads its
/// sentence, not only after a kind noun.
#[test]
fn values_in_parentheses_by_their_shape() {
    // XeroAPI/xero-mcp-server, crewAIInc/crewAI-tools (batches 12, 9)
    sets_are(&[
        ("Optional line amount types (EXCLUSIVE, INCLUSIVE, NO_TAX), NO_TAX by default", &["EXCLUSIVE", "INCLUSIVE", "NO_TAX"]),
        ("Compression format ('zip', 'tar', 'tar.gz', 'tar.bz2', 'tar.xz').", &["zip", "tar", "tar.gz", "tar.bz2", "tar.xz"]),
        // openai-openapi, awslabs/mcp (development text)
        ("The role of the message sender (`user`, `assistant`, `system`), only applicable for `message` items.", &["user", "assistant", "system"]),
        ("The data aggregating function (AVERAGE, COUNT, MAXIMUM, MINIMUM, SUM, STANDARD_DEVIATION)", &["AVERAGE", "COUNT", "MAXIMUM", "MINIMUM", "SUM", "STANDARD_DEVIATION"]),
        // two codes read as words (awslabs/mcp); two short ones are forms
        // or parts
        ("Warm tier setting (ENABLED, DISABLED)", &["ENABLED", "DISABLED"]),
        ("Cache behavior (CACHE_ALWAYS or CACHE_ON_FAILURE)", &["CACHE_ALWAYS", "CACHE_ON_FAILURE"]),
    ]);
    no_sets(&[
        "The resource identifier (ID or ARN)",
        "Position (LAT, LON)",
        // deeper in the sentence: another thing's values (openai-openapi,
        // PagerDuty api-schema, awslabs/mcp)
        "The type of error that caused the response to fail, corresponding with the `status` field (`completed`, `cancelled`, `incomplete`, `failed`).",
        "It combines a recurring time window with an effective date range (`effective_since`, `effective_until`).",
        "Must be true for destructive actions (\"remove\", \"leave\").",
        // a plural noun: its parts or the things it names (awslabs/mcp,
        // mongodb-js/mongodb-mcp-server)
        "The wait duration statistics (`avg`, `min`, `max`, `total`)",
        "Can be one of the built-in lucene analyzers (`lucene.standard`, `lucene.simple`, `lucene.whitespace`), a language-specific analyzer.",
        // bare words, one word, units, examples, a parenthesis that does
        // not close its clause
        "The incident visibility (public, private)",
        "The page size (optional)",
        "The timeout (seconds, minutes, hours)",
        "The output format (e.g. `json`, `csv`)",
        "The root (`protocol`, `subdomain`, `domain`) of any links.",
        "The repository (OWNER, REPO)",
    ]);
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
    no_sets(&[
        "Pick from: red, blue, or any.",
        "Tags for this, us, and them.",
    ]);
}

/// Round 11: a list that opens with a bullet marker after the lead's
/// colon goes on at the same marker, words as well as literals
/// (docusign's OpenAPI spec, three descriptions; openai-openapi's
/// "Allowed values are: - `file_search` - ...", read before by the
/// literals).
#[test]
fn bare_values_as_bullets_after_a_lead() {
    sets_are(&[
        ("Status of the user's account. One of: * ActivationRequired * ActivationSent * Active * Closed * Disabled", &["ActivationRequired", "ActivationSent", "Active", "Closed", "Disabled"]),
        ("The font. Supported Fonts include: - Default - Arial - OCR-A - Tahoma", &["Default", "Arial", "OCR-A", "Tahoma"]),
        ("The type of hosted tool. Allowed values are: - `file_search` - `computer` - `code_interpreter`", &["file_search", "computer", "code_interpreter"]),
    ]);
    // one bullet's label, described bullets, no lead
    no_sets(&[
        "Connector. Currently supported values are: - Dropbox: the Dropbox connector",
        "Notes: - first draft - then review",
    ]);
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
    sets_are(&[
        ("Aggregate data into larger time intervals. Supported: native, hourly, hourly_3, hourly_6.", &["native", "hourly", "hourly_3", "hourly_6"]),
        ("Array of read regions. Available regions: us-east-1, us-west-1, eu-central-1", &["us-east-1", "us-west-1", "eu-central-1"]),
        ("Filter releases by state (active, scheduled, published, archived, deleted, or all)", &["active", "scheduled", "published", "archived", "deleted", "all"]),
    ]);
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
    no_sets(&[
        "Optional perspective to query from: \"raw\", \"drafts\", \"published\", or a release ID.",
        "Type of data processing service: 'glue', 'emr', 'athena', or other AWS service name.",
        "Can be `always`, `never`, or a filter object.",
    ]);
    sets_are(&[
        (
            "Possible values are `read`, `readwrite`, `fullaccess`, or an empty string.",
            &["read", "readwrite", "fullaccess"],
        ),
        (
            "Possible values are `image.generation`, `image.edit` or any combination of them.",
            &["image.generation", "image.edit"],
        ),
    ]);
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
    sets_are(&[
        ("Whether to list local branches ('local'), remote branches ('remote') or all branches ('all').", &["local", "remote", "all"]),
        ("Whether the claim is an expression (`EXPRESSION`), a set of groups (`GROUPS`), or a system claim (`SYSTEM`)", &["EXPRESSION", "GROUPS", "SYSTEM"]),
        ("Sort by date, ascending (`asc`) or descending (`desc`).", &["asc", "desc"]),
    ]);
}

/// Round 12: described bullets of any kind of value and gloss: codes of
/// digits ("Allowed values: * **01** — No suspicious activity ... *
/// **02** — ...", adyen-openapi, its emphasis seen through) and an em
/// dash after a word, as the colon of "- canceled: indicates ..."; not a
/// number that is no code ("* 2.5 - ..."), nor a word before a dash.
#[test]
fn described_bullets_of_codes_and_dashes() {
    sets_are(&[
        ("Suspicious activity. Allowed values: * **01** \u{2014} No suspicious activity has been observed * **02** \u{2014} Suspicious activity has been observed", &["01", "02"]),
        ("Reason. * canceled \u{2014} indicates a cancel * incorrect \u{2014} indicates an error", &["canceled", "incorrect"]),
    ]);
    no_sets(&[
        "Steps. * 2.5 - the first step * 3.5 - the next step",
        "Notes. * first - a draft * then - a review",
    ]);
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
    no_sets(&[
        "Pick the right one for the whole operation type: \"edit\" modifies existing document, \"create\" creates new document.",
        "`mode` defaults to `similar`; `citers` returns papers, `intent` ranks candidates",
    ]);
}

/// Round 12: described bullets hold one kind of value, all literals or
/// all bare words. Once markdown emphasis is seen through,
/// PagerDuty/api-schema's "- **Users**: Direct cancellation ... **Result
/// Values**: - `cancelled`: ..." would read headings and literals as one
/// list; a list of one kind still reads (`none`/`overwrite`, the
/// development text's "- canceled: ... - incorrect: ...").
#[test]
fn described_bullets_hold_one_kind_of_value() {
    sets_are(&[
        (
            "Mode. * `none` will preserve it * `overwrite` will force it",
            &["none", "overwrite"],
        ),
        (
            "Reason. - canceled: indicates a cancel - incorrect: indicates an error",
            &["canceled", "incorrect"],
        ),
    ]);
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
    no_sets(&[
        "Valid types include `pairwise` and `public`, but only `public` is currently supported.",
        "The type, one of `a`, `b`, etc, as listed.",
    ]);
}

/// Round 11: a description that is only "Value is `x`." restates its one
/// value, as "The type of ... The value is `x`." does
/// (intercom/Intercom-OpenAPI; square's Connect API).
#[test]
fn a_description_that_is_only_its_value() {
    sets_are(&[
        ("Value is `data_attribute`.", &["data_attribute"]),
        ("The value is `banner`.", &["banner"]),
    ]);
    // a null, a condition, more text after it
    no_sets(&[
        "Value is `null` when messages are created manually.",
        "Value is `null`.",
        "Value is `x` for the first page. Later pages differ.",
    ]);
}

/// Round 11: "the example to load" names the thing the value is, a
/// noun, not an example cue (neo4j-contrib/mcp-neo4j); the cues stay.
#[test]
fn the_example_as_a_noun() {
    assert_eq!(
        sets("Name of the example to load: 'patient_journey', 'supply_chain', or 'fraud_aml'"),
        values(&["patient_journey", "supply_chain", "fraud_aml"])
    );
    no_sets(&[
        "The mode. For example: 'fast', 'slow', or 'auto'",
        "The mode, e.g. 'fast', 'slow', or 'auto'",
        "The mode. The example is: 'fast', 'slow', or 'auto'",
    ]);
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
    no_sets(&[
        "The media size limit is 5 MB for supported file types (`jpeg`, `jpg`, `png`, `gif`) and 500 KB for other types.",
        "A single block. Text-bearing block types (`paragraph`, `section_title`, `callout_box`) include a `fragment` property.",
        "Filter by the named statuses (open, closed).",
    ]);
}

/// Round 11: a parenthesis that opens with a noun and "is" names a case
/// by another member's values (lob/lob-openapi).
#[test]
fn a_case_named_in_parentheses() {
    assert!(no_set(
        "Will not be returned for undeliverable addresses or military addresses (state is `AA`, `AE`, or `AP`)."
    ));
    // the value's own values stay
    sets_are(&[
        (
            "The unit (value is `metric` or `imperial`).",
            &["metric", "imperial"],
        ),
        ("The unit, `metric` or `imperial`.", &["metric", "imperial"]),
    ]);
}

/// Two things that could both be given name arguments, not values
/// (lob/lob-openapi, openai-openapi).
#[test]
fn either_of_two_not_both() {
    no_sets(&[
        "Sorts items by ascending or descending dates. Use either `date_created` or `date_modified`, not both.",
        "Nucleus sampling; use either `temperature` or `top_p`, not both.",
        "Set `a` or `b` but not both.",
    ]);
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
    sets_are(&[
        ("The type of the nested field. Allowed types include `string`, `float` and `enum`.", &["string", "float", "enum"]),
        ("The set of items to include. Current available items are: `item.input_audio_transcription.logprobs`", &["item.input_audio_transcription.logprobs"]),
        ("Accepted file extensions are `.jpg` or `.png`.", &[".jpg", ".png"]),
    ]);
    // members of an object, a single literal without a colon, no literal
    no_sets(&[
        "An update. Possible properties include 'name' and 'description'.",
        "Supported units are listed in `units.md`.",
        "Available regions are those returned by `list_regions`.",
        "Not all file types are supported for these embed URLs.",
    ]);
}

/// "Values can include \"owner\", \"editor\", and \"viewer\""
/// (box-openapi), "Values can be 6 and 10" (MiniMax-MCP): "can" or "may"
/// before "be" or "include" after the "values" lead.
#[test]
fn values_can_be() {
    sets_are(&[
        (
            "The collaborator level. Values can include \"owner\", \"editor\", and \"viewer\".",
            &["owner", "editor", "viewer"],
        ),
        (
            "The duration of the video. Values can be 6 and 10.",
            &["6", "10"],
        ),
    ]);
    no_sets(&[
        "Node identifier. Multiple values can be provided.",
        "Values can be any string.",
        "The values may be separated by commas.",
    ]);
}

/// "exactly one" before a list names the member to give, not values:
/// "Exactly one of [log_group_names, log_group_identifiers] should be
/// non-null" (awslabs/mcp), "exactly one value field: 'text_value' for
/// text fields, ..." (github-mcp-server).
#[test]
fn exactly_one_member() {
    no_sets(&[
        "CRITICAL: Exactly one of [log_group_names, log_group_identifiers] should be non-null.",
        "Each element must have exactly one value field: 'text_value' for text fields, 'number_value' for number fields, or 'date_value' for date fields.",
        "Each entry must match exactly one reference variant: 'node_id', numeric 'item_id', or 'item_owner' + 'item_repo'.",
    ]);
}

/// A word joined by a slash is a value even when it reads as a pronoun
/// elsewhere: "Region: us/eu." (heroku-mcp-server), as "Region: eu/apac."
#[test]
fn slash_joined_words_are_values() {
    assert_eq!(sets("Region: us/eu. Default: us."), values(&["us", "eu"]));
    no_sets(&["Tell us/them what you need.", "Ask us about the region."]);
}

/// Values after "`name` [field] set to" are a member's: "Must include a
/// 'type' field set to 'object' or 'text'" (exa-mcp-server), like "with
/// a `stream_type` of `admin_logs` or `admin_logs_streaming`" (box-openapi).
#[test]
fn a_members_values() {
    no_sets(&[
        "JSON schema. Must include a 'type' field set to 'object' or 'text'.",
        "Used with a `stream_type` of `admin_logs` or `admin_logs_streaming`.",
        "Requires `mode` set to `fast` or `slow`.",
    ]);
    // the argument's own values after "set to" stay a set
    assert_eq!(sets("Set to `asc` or `desc`."), values(&["asc", "desc"]));
}

/// Literals followed by "fields", "parameters", ... name members:
/// "Currently only `text` (...) and `checked` (...) fields can be updated"
/// (notion-mcp-server), "Only `ID` and `type` fields are required"
/// (box-openapi).
#[test]
fn literals_naming_members() {
    no_sets(&[
        "Currently only `text` (for supported block types) and `checked` (for `to_do` blocks) fields can be updated.",
        "Only `ID` and `type` fields are required.",
        "Passing `sort`, `direction`, or `limit` parameters in query.",
    ]);
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
    no_sets(&[
        "The value to apply, using {\"id\": 123, \"value\": ...} or {\"name\": \"Status\", \"value\": ...}; null clears it.",
        "Job configuration. For CSV: {\"fileFormat\": {\"csv\": {\"columnNames\": [\"ALIAS\", \"ASSET_ID\", ...]}}}",
    ]);
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
    no_sets(&[
        "Supports two mechanisms: the request path (elicitation/create, default) which awaits the response.",
        "Inline point markers (start/end, numbered, pinned).",
    ]);
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
    sets_are(&[
        (
            "One of: none, cheapest, fastest",
            &["none", "cheapest", "fastest"],
        ),
        (
            "Filter to apply. Valid values: ALL, PENDING, RUNNING, FAILED",
            &["ALL", "PENDING", "RUNNING", "FAILED"],
        ),
        (
            "The type of the DataSource. Valid values: AWS_LAMBDA, HTTP, NONE, RELATIONAL_DATABASE",
            &["AWS_LAMBDA", "HTTP", "NONE", "RELATIONAL_DATABASE"],
        ),
    ]);
    // joined by "or", or words of the sentence
    no_sets(&[
        "Return either all or none of the results.",
        "Options: all of the above.",
        "The values: none.",
    ]);
}

/// A gloss in parentheses after each value does not end the list:
/// "Allowed values are 'mobile' (to sign users out of the mobile app) and
/// 'web' (...)" (PagerDuty api-schema), "Allowed values: LOCAL (mount
/// local EBS ...) or SHARED (use shared scratch storage)" and "Options:
/// \"internal\" (private VPC only) or \"internet-facing\" (public access)"
/// (awslabs/mcp); the list used to stop at its first value.
#[test]
fn a_gloss_after_each_value() {
    sets_are(&[
        ("The type of OAuth delegations. Allowed values are 'mobile' (to sign users out of the mobile app) and 'web' (to sign users out of the web app).", &["mobile", "web"]),
        ("Scratch storage mode. Allowed values: LOCAL (mount local EBS scratch storage) or SHARED (use shared scratch storage). Defaults to LOCAL.", &["LOCAL", "SHARED"]),
        ("AWS load balancer scheme. Options: \"internal\" (private VPC only) or \"internet-facing\" (public access).", &["internal", "internet-facing"]),
        // the last gloss still ends the list; bare words after "either"
        // name members ("with either inlineSettings (list of up to 100 run
        // configs) or s3UriSettings (S3 URI for configs)", awslabs/mcp)
        ("Options: `a` (fast), `b` (slow). Use `a` mostly.", &["a", "b"]),
    ]);
    no_sets(&[
        "Batch run settings with either inlineSettings (list of run configs) or s3UriSettings (S3 URI for configs).",
        // forms of a date are formats, not values, when any of them has
        // placeholders ("in the following formats: `YYYY-MM-DD` (...),
        // `<=YYYY-MM-DD` (...), and `>=YYYY-MM-DD` (...)", twilio-oai)
        "Filter by date. Accepts dates in the following formats: `YYYY-MM-DD` (on a date), `<=YYYY-MM-DD` (on and before), and `>=YYYY-MM-DD` (on and after).",
    ]);
}

/// A member noun before the colon makes the list a list of members:
/// "Filtering supports the following properties: `id`, `type`, ..."
/// (okta management spec), "Dictionary with supported keys: \"Type\",
/// \"Name\", ..." (awslabs/mcp), "You may not override the following
/// headers: `x-sg-id`, ..." (sendgrid-oai), "the expression can include
/// the following worker fields: `sid`, ..." (twilio-oai).
#[test]
fn members_named_before_a_colon() {
    no_sets(&[
        "Filter expression for groups. Filtering supports the following limited number of properties: `id`, `type`, `lastUpdated`, and `lastMembershipUpdated`.",
        "Service key attributes. Dictionary with supported keys: \"Type\", \"Name\", \"Environment\".",
        "Handling instructions. You may not override the following headers: `x-sg-id`, `received`, `To`, `From`.",
        "Filter by Workers. The expression can include the following worker fields: `sid`, `friendly_name`, or `activity_name`",
        "KMS configuration. An object with keys: \"keyType\" (either \"CustomerManagedKey\" or \"ServiceManagedKey\") and \"kmsKeyArn\".",
    ]);
    // the next sentence is read again, and other nouns keep their list
    sets_are(&[
        (
            "An object with keys: `a`, `b`. Mode: `fast` or `slow`.",
            &["fast", "slow"],
        ),
        (
            "The sort field. Sort keys are: `name`, `size`, `date`.",
            &["name", "size", "date"],
        ),
    ]);
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
    sets_are(&[
        ("The direction of the call. Can be: `inbound` for inbound calls, `outbound-api` for calls initiated via the REST API or `outbound-dial` for calls initiated by a dial verb.", &["inbound", "outbound-api", "outbound-dial"]),
        ("The name of one of the supported ops: `add`: Add a new claim to the assertion `replace`: Modify any element of the assertion", &["add", "replace"]),
        // the finding starts at the first value, so a condition before the
        // parenthesis does not swallow it (okta management spec)
        ("Indicates if the assignment is direct (`USER`) or by group membership (`GROUP`).", &["USER", "GROUP"]),
        // a single value keeps its own reading; advice is not a list
        ("Can be: `asc` only.", &["asc"]),
    ]);
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
    no_sets(&[
        "Compression level for `jpeg` or `webp` output.",
        "The location to copy a value from. Required for `move` or `copy` operations.",
        "The phone number for a `call` or `sms` authenticator enrollment.",
    ]);
    // values that end the clause stay a set
    sets_are(&[
        (
            "Optimize route for 'FastestRoute' or 'ShortestRoute' (default: 'FastestRoute')",
            &["FastestRoute", "ShortestRoute"],
        ),
        ("Sort order for results, `asc` or `desc`.", &["asc", "desc"]),
    ]);
}

/// Literals followed by "of the" name members of that thing: "The `sid`
/// or `unique_name` of the Service resource to fetch" (twilio-oai), "`id`
/// or `label` of the role" (okta management spec).
#[test]
fn members_of_the_thing_named_after() {
    no_sets(&[
        "The `sid` or `unique_name` of the Service resource to fetch.",
        "`id` or `label` of the role",
    ]);
    // values followed by something else stay a set
    sets_are(&[
        (
            "The sort order, `asc` or `desc`, of results.",
            &["asc", "desc"],
        ),
        ("One of `asc` or `desc`.", &["asc", "desc"]),
    ]);
}

/// The default closing a list of literals is one of its values:
/// twilio-oai ("Can be: `GET` or `POST` and defaults to `POST`"),
/// intercom/Intercom-OpenAPI ("Can be \"five9\", \"zoom_phone\", or
/// defaults to \"aws_connect\"").
#[test]
fn a_default_closing_the_list() {
    sets_are(&[
        (
            "The HTTP method to call `sms_url`. Can be: `GET` or `POST` and defaults to `POST`.",
            &["GET", "POST"],
        ),
        (
            "Source of the call. Can be \"five9\", \"zoom_phone\", or defaults to \"aws_connect\"",
            &["five9", "zoom_phone", "aws_connect"],
        ),
    ]);
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
    sets_are(&[
        ("The method to use to get the tasks: \"completion\" to get tasks by completion date (ie, when the task was actually completed), \"due\" to get tasks by due date.", &["completion", "due"]),
        ("The tab action: \"new\" to open a new tab, \"select\" to switch to a tab by index.", &["new", "select"]),
    ]);
    // a flag's states, a change of value, advice, members named by their noun
    no_sets(&[
        "Whether to record the call. Can be `true` to record the phone call, or `false` to not.",
        "Whether to enable multi-tasking. Can be: `true` to enable multi-tasking, or `false` to disable it.",
        "Change `foo` to `bar` in the config.",
        "Set `a` to enable it, `b` to disable it.",
        "The field `name` to sort by, and `order` to apply.",
    ]);
}

/// A fixed value after "always set to" (openai-openapi: "this property is
/// always set to `drag`") or "always has the value"
/// (intercom/Intercom-OpenAPI: "Always has the value `banner`."), as
/// "will always be `comment`" (box-openapi).
#[test]
fn always_set_to_a_value() {
    sets_are(&[
        (
            "Specifies the event type. For a drag action, this property is always set to `drag`.",
            &["drag"],
        ),
        (
            "String representing the object's type. Always has the value `banner`.",
            &["banner"],
        ),
    ]);
    // a member named before, a boolean, a number
    no_sets(&[
        "By default, the `data.action.credential` is always set to `UNVERIFIED`.",
        "Indicates if sign-in is supported and is always set to `true`.",
        "The step number. Currently unused and always set to `0`.",
    ]);
}

/// Bare words after an accepting word, its noun and a colon:
/// dbt-labs/dbt-mcp ("Valid types: Model, Source, ..., Test."),
/// digitalocean/openapi ("Allowed types: agent, llm, tool, retriever"),
/// awslabs/mcp ("Valid operations: GetItem, Query, Scan").
#[test]
fn words_after_an_accepting_lead_and_a_colon() {
    sets_are(&[
        (
            "Resource types to include. Valid types: Model, Source, Seed, SavedQuery, Test.",
            &["Model", "Source", "Seed", "SavedQuery", "Test"],
        ),
        (
            "Allowed types: agent, llm, tool, retriever",
            &["agent", "llm", "tool", "retriever"],
        ),
        (
            "Valid operations: GetItem, Query, Scan",
            &["GetItem", "Query", "Scan"],
        ),
    ]);
    // characters, a sentence, a single word, a list that runs on
    no_sets(&[
        "Allowed characters: letters, digits and hyphens.",
        "Supported regions: see the documentation for a list.",
        "Valid types: Model.",
        "Supported databases: MySQL, PostgreSQL, SQL Server, Oracle",
    ]);
}

/// Characters described one by one are operators the value may hold, not
/// its values (buildkite/buildkite-mcp-server), as "must not contain `<`,
/// `>` or `&`" (the real corpus) in a plain list.
#[test]
fn characters_described_one_by_one() {
    no_sets(&[
        "Filter by tags in key:value form. Values support '!' for exclusion and '*' for prefix matching.",
        "The name. Must not contain `<`, `>` or `&`.",
    ]);
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
    no_sets(&[
        "Category or classification of the entity. Common types: 'person', 'company', 'location', 'concept', 'event'",
        "The quantile of HTTP latency to fetch. Common values: 0.5 (median), 0.95 (95th percentile), 0.99 (99th percentile).",
    ]);
    // accepted values, a list in the next sentence, a singular label stay sets
    sets_are(&[
        (
            "The entity type. Supported types: 'person', 'company', 'location'",
            &["person", "company", "location"],
        ),
        (
            "Common types are listed below. One of `a`, `b` or `c`.",
            &["a", "b", "c"],
        ),
        (
            "Common name: one of `cn`, `dn` or `uid`.",
            &["cn", "dn", "uid"],
        ),
    ]);
}

/// The new shapes stay silent in examples, outputs, conditions and
/// defaults, like the older ones.
#[test]
fn new_shapes_keep_the_shared_negatives() {
    no_sets(&[
        "For example, allowed types include `string` and `float`.",
        "e.g. `alpha`, `beta` and `gamma` are supported by some servers.",
        "Returns the status of the item (`completed`, `incomplete`, `in_progress`).",
        "When the type is `file`, the value must be `x`.",
        "Defaults to `auto`.",
        "If `a` and `b` are supported, the request succeeds.",
    ]);
}
