//! Every recognizer of the reader, in one table: its name, the family that
//! runs it, its level (measured, see [`crate::levels`]) and what it reads.
//!
//! A recognizer is one shape of prose that states a constraint. Each is a
//! named unit: a finding carries the [`Rec`] that made it, so the tests can
//! count each recognizer's hits on the held-out batches and set its level
//! from them, and a user's audit names the recognizer behind each finding.
//! Each row holds its reader, the function that reads it; the driver runs
//! the rows family by family (`bounds`, `spans`, ... in [`FAMILIES`] order)
//! over one token list and owns the order and the cursor.

use crate::levels::ERROR_LEVEL;
use crate::reader::Read;
use crate::{bounds, closed_sets, emptiness, formats, patterns, signs, spans};

/// How sure a finding is, and so how it is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Reported by an audit only (`Registry::audit()`, `toolbox lint`): the
    /// recognizer has not been measured right often enough to stop a build.
    Audit,
    /// A compile error in the macro: the recognizer's precision over every
    /// held-out batch is at least 0.97, with enough hits to mean it.
    Error,
}

impl Level {
    /// `"error"` or `"audit"`, as the audit's JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Audit => "audit",
            Level::Error => "error",
        }
    }
}

/// One recognizer: a row of [`TABLE`].
#[derive(Clone, Copy, Debug)]
pub struct Recognizer {
    /// Its name, kebab-case, as an audit finding and the docs write it.
    pub name: &'static str,
    /// The family that runs it (one module of this crate).
    pub family: &'static str,
    /// What it reads.
    pub reads: &'static str,
    /// One description it reads, verbatim.
    pub example: &'static str,
    /// Where [`Recognizer::example`] comes from.
    pub source: &'static str,
    /// What it must not read, though the words are close.
    pub not: &'static str,
    /// Its reader, which the driver runs at each token its family may open.
    pub(crate) read: Read,
}

impl Recognizer {
    /// Its level, as measured on the held-out batches.
    pub fn level(&self) -> Level {
        if ERROR_LEVEL.contains(&self.name) {
            Level::Error
        } else {
            Level::Audit
        }
    }
}

/// The families, in the order the driver runs them.
pub const FAMILIES: &[&str] = &[
    "bounds",
    "spans",
    "emptiness",
    "signs",
    "closed_sets",
    "formats",
    "patterns",
];

macro_rules! recognizers {
    ($($id:ident $name:literal $family:literal $read:expr,
        reads $reads:literal
        e.g. $example:literal from $source:literal
        not $not:literal;)*) => {
        /// A recognizer's identity; `TABLE[rec as usize]` is its row.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Rec { $(#[doc = $reads] $id,)* }

        /// Each row's [`Rec`], in the table's order.
        const RECS: &[Rec] = &[$(Rec::$id,)*];

        /// Every recognizer, in the order of [`Rec`].
        pub static TABLE: &[Recognizer] = &[$(Recognizer {
            name: $name,
            family: $family,
            reads: $reads,
            example: $example,
            source: $source,
            not: $not,
            read: $read,
        },)*];
    };
}

impl Rec {
    /// Its row of [`TABLE`].
    pub fn row(self) -> &'static Recognizer {
        &TABLE[self as usize]
    }

    /// The recognizer of row `index` of [`TABLE`] (a finding's row, as the
    /// driver stamps it).
    pub(crate) fn at(index: usize) -> Rec {
        RECS[index]
    }
}

recognizers! {
    // bounds
    SizedNoun "sized-noun" "bounds" bounds::sized_noun,
        reads "a size in characters before its noun"
        e.g. "The 2-character ISO 3166-1 code" from "plaid/plaid-openapi"
        not "a size that is not in characters or bytes";
    MaximumBesideDefault "maximum-beside-default" "bounds" bounds::maximum_beside_default,
        reads "a maximum named beside the default"
        e.g. "The default value (as well as the maximum) is 20" from "discord/discord-api-spec"
        not "the default alone";
    DateBound "date-bound" "bounds" bounds::date_bound,
        reads "a date after a label naming the minimum or maximum, or with words that make it the first or last day: \"no earlier than\", \"not before\", \"on or after\", \"from\" or \"since\" (with no end), \"no later than\", \"on or before\", \"or later\", \"onwards\""
        e.g. "Minimum is 1950-01-01" from "open-meteo/open-meteo"
        not "a date that opens a span (\"from 2015-01-01 to 2020-12-31\"), the origin of a unit of time (\"milliseconds since 1970-01-01\"), a date in an example, bare \"after\" or \"before\"";
    LengthLabelOfClass "length-label-of-class" "bounds" bounds::length_label_of_class,
        reads "a length label whose unit names characters of a class: a length as well as a pattern"
        e.g. "Fixed length: 4 digits" from "Adyen/adyen-openapi"
        not "a label that counts no characters";
    Comparative "comparative" "bounds" bounds::comparative,
        reads "a comparative or a bound label before a number, with what the number counts"
        e.g. "Maximum number of results to return (at most 100)." from "the first corpus"
        not "a rate (\"100 requests per minute\"), a duration (\"may take up to 60 seconds\"), what the service returns or gives (\"allow you to get up to 5\"), a retry count";
    PostfixBound "postfix-bound" "bounds" bounds::postfix_bound,
        reads "a number and its unit, then the bound"
        e.g. "200 characters max" from "the first corpus"
        not "a number that a comparative before it already read";
    // spans
    NumberedLegend "numbered-legend" "spans" spans::numbered_legend,
        reads "a legend of consecutive whole numbers: their span is the range"
        e.g. "0=disabled, 1=read, 2=write, 3=admin" from "the first corpus"
        not "two entries without a word";
    LengthLabelSpan "length-label-span" "spans" spans::length_label_span,
        reads "a span after a length label whose unit names a class of characters"
        e.g. "Length: 1–3 digits" from "Adyen/adyen-openapi"
        not "a span after any other label";
    Span "span" "spans" spans::span,
        reads "two numbers joined as a span"
        e.g. "Number of results, between 1 and 100." from "the first corpus"
        not "a legend (\"values between 0 and 1 indicate ...\"), advice (\"Higher values (100-1000) ...\"), a standard's number (\"ISO-3166-1\"), a size no declaration counts (\"in 2-3 sentences\")";
    // emptiness
    MustNotBeEmpty "must-not-be-empty" "emptiness" emptiness::must_not_be_empty,
        reads "\"must not be empty\" and its modal forms"
        e.g. "The name must not be empty." from "the first corpus"
        not "\"must contain at least one\" (a bound)";
    // signs
    OneBased "one-based" "signs" signs::one_based,
        reads "\"1-based\", \"1-indexed\": at least 1"
        e.g. "Page number (1-indexed)." from "comet-ml/opik-mcp"
        not "\"0-based\" (labelled either way)";
    Sign "sign" "signs" signs::sign,
        reads "\"positive\", \"non-negative\" of the value"
        e.g. "Must be a positive, numeric value." from "the first corpus"
        not "what a sign means (\"Positive values penalize new tokens\")";
    // closed_sets
    DescribedValues "described-values" "closed_sets" closed_sets::described_values,
        reads "values each opening a sentence or a bullet, described by a verb or a gloss"
        e.g. "'codeblock' wraps logs ... 'plain' returns raw text" from "the tuned batches"
        not "a flag's `true` and `false`, characters, member names";
    FixedValue "fixed-value" "closed_sets" closed_sets::fixed_value,
        reads "a value stated always to be one literal"
        e.g. "The value will always be `comment`." from "box/box-openapi"
        not "\"This value is always `true`\", a value under a condition";
    RestatedTypeValue "restated-type-value" "closed_sets" closed_sets::restated_type_value,
        reads "a description that opens with \"The type of\" and ends on its one value"
        e.g. "The type of this object (`container.file`)." from "openai/openai-openapi"
        not "a type with several values";
    AcceptedCapitalList "accepted-capital-list" "closed_sets" closed_sets::accepted_capital_list,
        reads "codes in capitals after an accepting word, its noun and a colon"
        e.g. "Allowed categories: TRAVEL, MEALS, ENTERTAINMENT, OFFICE SUPPLIES, OTHER." from "awslabs/mcp"
        not "codes after \"characters\"";
    ValuesOneByOne "values-one-by-one" "closed_sets" closed_sets::values_one_by_one,
        reads "a lead before values described one by one"
        e.g. "Can be: `inbound` for inbound calls, `outbound-api` for ..." from "twilio/twilio-oai"
        not "a flag's two states";
    ValueList "value-list" "closed_sets" closed_sets::value_list,
        reads "a list of values after a lead (\"one of\", \"can be\", \"supported values\") or in parentheses after a kind noun"
        e.g. "The status of the item (`completed`, `incomplete`, `in_progress`)" from "openai/openai-openapi"
        not "typical values (\"Common types: ...\"), examples (\"e.g. ...\"), one of several forms (\"or a release ID\"), names of members";
    // formats
    DateLayout "date-layout" "formats" formats::date_layout,
        reads "a date or time layout read by its letters"
        e.g. "Due date in YYYY-MM-DD format." from "the first corpus"
        not "a layout among alternative forms (\"YYYY-MM-DD or 'today'\")";
    DateLiteral "date-literal" "formats" formats::date_literal_shown,
        reads "a date written as an example of the value's form"
        e.g. "e.g. `2024-01-31`" from "the first corpus"
        not "a date in a sentence about something else";
    FormatStandard "format-standard" "formats" formats::format_standard,
        reads "a format standard named: ISO 8601, RFC 3339"
        e.g. "The inclusive start. Format: RFC-3339." from "the tuned batches"
        not "RFC 2822 dates, a standard in a link";
    IsoTimeWord "iso-time-word" "formats" formats::iso_time_word,
        reads "\"ISO\" before a time word: the ISO timestamp"
        e.g. "Last update timestamp in ISO format" from "the tuned batches"
        not "\"ISO\" alone, a country or currency code standard";
    IsoDateWord "iso-date-word" "formats" formats::iso_date_word,
        reads "\"ISO\" before a date word"
        e.g. "ISO date time string when the segment was updated." from "the tuned batches"
        not "\"ISO dates are not accepted\", a format of the response";
    IsoCodeFormat "iso-code-format" "formats" formats::iso_code_format,
        reads "a code \"in ISO format\": the code's standard shape"
        e.g. "Currency code in ISO format" from "the tuned batches"
        not "ISO before a date word (a format)";
    Uuid "uuid" "formats" formats::uuid,
        reads "the value named a UUID"
        e.g. "The build UUID" from "CircleCI-Public/mcp-server-circleci"
        not "a UUID of one of two alternatives, a noun after a verb";
    Email "email" "formats" formats::email,
        reads "the value named an email address"
        e.g. "User email address" from "the first corpus"
        not "an email API, an address of something else";
    Url "url" "formats" formats::url,
        reads "the value named a URL or URI"
        e.g. "URL to fetch" from "modelcontextprotocol/servers"
        not "\"Trigger a URL elicitation\", a URL scan";
    IpAddress "ip-address" "formats" formats::ip_address,
        reads "the value named an IPv4 or IPv6 address"
        e.g. "IPv4 address of the gateway" from "the first corpus"
        not "an IP address inside a clause about something else";
    TimeLayout "time-layout" "formats" formats::time_layout,
        reads "\"HH:MM\""
        e.g. "Start time, HH:MM" from "the first corpus"
        not "the rest of a longer layout";
    // patterns
    DecimalPlaces "decimal-places" "patterns" patterns::decimal_places,
        reads "the value's precision in decimal places"
        e.g. "The unit price. Up to 2 decimal points" from "the tuned batches"
        not "a count of other things";
    HexCharacters "hex-characters" "patterns" patterns::hex_characters,
        reads "hex digits, a hex string, a hex colour"
        e.g. "A hex string of 64 characters" from "the first corpus"
        not "the brand colour is in hexadecimal format (another thing's form)";
    CharacterClasses "character-classes" "patterns" patterns::character_classes,
        reads "the classes of characters the value is made of"
        e.g. "lowercase letters and digits only" from "the first corpus"
        not "a clause that picks things by a member";
    ExcludedCharacters "excluded-characters" "patterns" patterns::excluded_characters,
        reads "characters the value may not contain"
        e.g. "The name may not contain spaces or slashes." from "the tuned batches"
        not "\"Uploads containing viruses are not allowed\"";
    StandardByNumber "standard-by-number" "patterns" patterns::standard_by_number,
        reads "a standard named by number: ISO 3166-1 alpha-2, BCP 47, RFC 3230"
        e.g. "Language tag as defined in BCP 47." from "the tuned batches"
        not "a standard in a link or a reference (\"See RFC 7231 section 6\")";
    CodeStandard "code-standard" "patterns" patterns::code_standard,
        reads "an ISO, IETF or BCP code: language, country, currency"
        e.g. "ISO language code for the response (e.g., \"en\", \"es\")" from "the tuned batches"
        not "\"ISO country codes are not supported\"";
    Templates "templates" "patterns" patterns::templates,
        reads "templates after \"Supported patterns:\""
        e.g. "Supported patterns: https://x.example/{org}/{id}" from "microsoft/azure-devops-mcp"
        not "\"Common patterns: ...\", typical values";
    DoesNotAllow "does-not-allow" "patterns" patterns::does_not_allow,
        reads "\"does not allow\" and characters"
        e.g. "Name (min length: 1 character, does not allow < or >)" from "the tuned batches"
        not "a permission";
    HexFormat "hex-format" "patterns" patterns::hex_format,
        reads "the value in hex format"
        e.g. "Header background color (hex format)." from "the tuned batches"
        not "another thing's hex form";
    FormatTemplate "format-template" "patterns" patterns::format_template,
        reads "\"with format\" and a template in code"
        e.g. "Use the `spec` parameter with format `proj/<key>:env/<env>`." from "launchdarkly/mcp-server"
        not "a template under a condition";
    AllCaps "all-caps" "patterns" patterns::all_caps,
        reads "\"all caps\": no lowercase letter"
        e.g. "Should be all caps" from "awslabs/mcp"
        not "caps of another thing";
    CaseStyle "case-style" "patterns" patterns::case_style,
        reads "a case style named: camelCase, kebab-case, SCREAMING_SNAKE_CASE"
        e.g. "Should be in SCREAMING_SNAKE_CASE." from "neo4j-contrib/mcp-neo4j"
        not "a style named as an example";
    PlaceholderShape "placeholder-shape" "patterns" patterns::placeholder_shape,
        reads "a shape written with placeholders"
        e.g. "Format: emr-x.x.x" from "awslabs/mcp"
        not "a known format word";
    LayoutFormat "layout-format" "patterns" patterns::layout_format,
        reads "words joined by a slash or a colon before \"format\""
        e.g. "Name for the new package in namespace/name format" from "quiltdata/quilt-mcp-server"
        not "a date layout (\"in MM/DD/YYYY format\")";
    Prefix "prefix" "patterns" patterns::prefix,
        reads "a literal the value starts with, or a prefix it must have or must not"
        e.g. "ID should have a pay_ prefix." from "razorpay/razorpay-mcp-server"
        not "\"Start with 'workspace'\" opening a sentence, \"Prefix with '!' to exclude\", \"paths that start with this prefix\"";
    Encoded "encoded" "patterns" patterns::encoded,
        reads "\"base64-encoded\" of the value"
        e.g. "Attachment content, base64-encoded" from "cbcoutinho/nextcloud-mcp-server"
        not "what the tool returns, what it encodes itself (\"will be base64 encoded automatically\"), \"base64 data\" as one of two forms";
    Cidr "cidr" "patterns" patterns::cidr,
        reads "CIDR notation"
        e.g. "The subnet in CIDR notation" from "the first corpus"
        not "\"List of ip addresses and CIDRs\"";
    E164 "e164" "patterns" patterns::e164,
        reads "E.164 numbers"
        e.g. "Phone number in E.164 format" from "the first corpus"
        not "E.164 among other forms";
    LetterCode "letter-code" "patterns" patterns::letter_code,
        reads "a code counted in letters"
        e.g. "Two-letter language code." from "the first corpus"
        not "letters of something else";
    DigitCountWord "digit-count-word" "patterns" patterns::digit_count_word,
        reads "a code counted in digits as a number word"
        e.g. "a four-digit number" from "Adyen/adyen-openapi"
        not "digits of something else";
    CountedClass "counted-class" "patterns" patterns::counted_class,
        reads "\"a 6-digit code\", \"a 3-letter code\""
        e.g. "A 6-digit code." from "the first corpus"
        not "a count with no class of characters";
}
