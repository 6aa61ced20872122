#!/usr/bin/env python3
"""Builds the third false-alarm set (tests/false_alarms3/) from the tool
lists of 56 MCP servers that no corpus, tool set, tuning round or earlier
false-alarm set has read: 49 installed from npm and 7 from PyPI, each pinned
(SOURCES), run over stdio in a scratch directory (dummy credentials in the
environment where a server wants some before it lists its tools) and listed
with `tools/list` (initialize, notifications/initialized, every page) by a
small JSON-RPC client written for the purpose. Each answer was saved as
raw/<set>.json.gz (serverInfo and tools, exactly as served) before anything
else read it.

Selection, written before any candidate was labelled and without reading or
running any code of the reader (contract-prose, `toolbox lint`):
1. candidates, by set 2's rule (tests/false_alarms2/build.py), unchanged: a
   property (at any depth) whose description names at least two of its
   `enum` values (or its one value, or its `const`), writes the number of
   its `minimum`/`maximum`/`minLength`/`maxLength`/`minItems`/`maxItems`,
   names the kind its `format` declares (URL over `uri`, email, UUID, ...),
   or sits on a `pattern`; one entry per distinct (description, keywords),
   the sets taken in name order; and, new in this set so that no server
   makes much of it, at most CAP candidates per set, the first in the order
   the server lists its tools (two sets reach the cap);
2. every candidate read and labelled by hand, one labeller (EXCLUDED below):
   `fully-declared` when the description is correct and every constraint on
   the argument's value it states is declared by the keywords; otherwise
   excluded with the reason. The labelling rules are set 2's: values given
   as examples, a subset of the values with no set stated, a list presented
   as the set that is not the enum's, a default alone, an index base
   ("0-based", "1-indexed"), a rule across arguments ("only with
   action=list", "required when X is set"), a condition on the value, a rule
   about the world, or a stated bound, format or time zone the keywords do
   not declare, each excludes the entry.

Usage: build.py [RAW_DIR]   (RAW_DIR defaults to raw/ beside this script;
writes sets.json and selection.jsonl beside it)
"""
import gzip, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from false_alarm_sets import build  # noqa: E402  (the shared rule, beside this folder)

SOURCES = {
    "accesslint": "@accesslint/mcp@0.11.1",
    "airbnb": "@openbnb/mcp-server-airbnb@0.3.0",
    "alibabadevops": "alibabacloud-devops-mcp-server@0.3.64",
    "appledocs": "@kimsungwhee/apple-docs-mcp@1.0.26",
    "bitbucket": "bitbucket-mcp@5.0.6",
    "bnb": "@bnb-chain/mcp@1.5.1",
    "bycrawl": "@bycrawl/mcp@0.9.0",
    "calc": "@coo-quack/calc-mcp@2.1.1",
    "ccxt": "@mcpfun/mcp-server-ccxt@1.2.1",
    "chatwork": "@chatwork/mcp-server@0.0.4",
    "cloudbase": "@cloudbase/cloudbase-mcp@2.34.6",
    "cloudinary": "@cloudinary/asset-management-mcp@0.11.0",
    "codacy": "@codacy/codacy-mcp@0.5.9",
    "coolify": "@masonator/coolify-mcp@3.5.0",
    "dguido": "@dguido/google-workspace-mcp@3.4.4",
    "discourse": "@discourse/mcp@0.3.1",
    "dokploy": "@ahdev/dokploy-mcp@1.6.0",
    "erpnext": "@casys/mcp-erpnext@3.0.4",
    "europarl": "european-parliament-mcp-server@1.1.26",
    "excel": "excel-mcp-server==2.2.2 (PyPI)",
    "fr24": "@flightradar24/fr24api-mcp@1.0.2",
    "gdrive": "@piotr-agier/google-drive-mcp@2.10.0",
    "gworkspace": "workspace-mcp==2.2.1 (PyPI)",
    "hamcp": "ha-mcp==3.5.1 (PyPI)",
    "headless": "@headless-commerce/mcp-server@0.1.4",
    "hostinger": "hostinger-api-mcp@1.63.2",
    "instantdb": "@instantdb/mcp@1.0.67",
    "iterable": "@iterable/mcp@1.9.0",
    "karakeep": "@karakeep/mcp@0.33.1",
    "kieai": "@felores/kie-ai-mcp-server@5.0.0",
    "lara": "@translated/lara-mcp@1.0.6",
    "leanlsp": "lean-lsp-mcp==0.32.0 (PyPI)",
    "linebot": "@line/line-bot-mcp-server@0.5.0",
    "lunchmoney": "@akutishevsky/lunchmoney-mcp@3.0.0",
    "metabase": "@easecloudio/mcp-metabase-server@1.3.0",
    "ms365": "@softeria/ms-365-mcp-server@0.155.0",
    "mysqlberthojoris": "@berthojoris/mcp-mysql-server@1.43.2",
    "n8n": "n8n-mcp@2.87.0",
    "omnifocus": "omnifocus-mcp@1.16.0",
    "onemcp": "0nmcp@4.22.0",
    "paperless": "@baruchiro/paperless-mcp@2.2.1",
    "plane": "@makeplane/plane-mcp-server@0.1.5",
    "postgreshenkey": "@henkey/postgres-mcp-server@1.0.7",
    "replicate": "replicate-mcp@0.9.0",
    "respira": "@respira/wordpress-mcp-server@8.3.34",
    "rollbar": "@rollbar/mcp-server@0.6.0",
    "searchconsole": "search-console-mcp@2.1.3",
    "selenium": "@angiejones/mcp-selenium@0.2.3",
    "servicenow": "mfa-servicenow-mcp==1.25.4 (PyPI)",
    "sonarqube": "sonarqube-mcp-server@1.10.21",
    "svgmaker": "@genwave/svgmaker-mcp@0.3.1",
    "teams": "@floriscornel/teams-mcp@0.3.2",
    "tradingview": "tradingview-mcp-server@0.7.1",
    "variflight": "@variflight-ai/variflight-mcp@1.0.3",
    "yahoofin": "mcp-yahoo-finance==0.2.0 (PyPI)",
    "zai": "@z_ai/mcp-server@0.1.5",
}

# At most this many candidates per set (the first in list order), so that
# no server is more than a small part of the set (set 2's flaw: one server
# made 82% of it).
CAP = 45

# Hand labels: (set, tool, argument) -> reason for exclusion. Every other
# candidate is labelled fully declared (each was read).
EXCLUDED = {
    ("alibabadevops", "review_change_request", "reviewOpinion"): "states a rule across arguments (required with a review conclusion, omitted for a draft comment)",
    ("alibabadevops", "create_change_request_comment", "comment_type"): "states a rule across arguments (inline comments need file_path, line_number, ...)",
    ("alibabadevops", "create_change_request_comment", "line_number"): "states a rule across arguments (only for inline comments); \"counts from 1\" with 0 meaning none",
    ("alibabadevops", "search_projects", "scenarioFilter"): "states a rule across arguments (requires userId)",
    ("alibabadevops", "search_programs", "page"): "states no constraint (a default)",
    ("alibabadevops", "list_program_versions", "page"): "states no constraint (a default)",
    ("alibabadevops", "create_work_item", "formatType"): "states a condition on the value (MARKDOWN when the description holds markdown)",
    ("alibabadevops", "search_workitems", "spaceType"): "states a rule across arguments (Program when spaceId is a program)",
    ("alibabadevops", "search_workitems", "page"): "states a rule across arguments (page * perPage at most 10000)",
    ("alibabadevops", "search_workitems", "perPage"): "states a rule across arguments (page * perPage at most 10000)",
    ("alibabadevops", "generate_pipeline_yaml", "buildTool"): "states a rule across arguments (inferred from buildLanguage)",
    ("alibabadevops", "update_work_item", "updateWorkItemFields.formatType"): "states a condition on the value (MARKDOWN when the description holds markdown)",
    ("alibabadevops", "list_pipelines", "page"): "states no constraint (a default)",
    ("appledocs", "search_framework_symbols", "symbolType"): "names four of twelve values, no set stated",
    ("appledocs", "resolve_references_batch", "filterByType"): "names three of eight values, no set stated",
    ("bitbucket", "listRepositories", "page"): "\"1-based\" is an index base, not a stated minimum",
    ("bnb", "transfer_native_token", "amount"): "pattern not stated (example only)",
    ("bnb", "approve_token_spending", "amount"): "pattern not stated (example only)",
    ("bnb", "transfer_erc20", "amount"): "pattern not stated (example only)",
    ("bnb", "gnfd_get_account_balance", "network"): "values given as examples (\"e.g.\")",
    ("bnb", "gnfd_deposit_to_payment", "amount"): "pattern not stated (a unit only)",
    ("bnb", "gnfd_withdraw_from_payment", "amount"): "pattern not stated (a unit only)",
    ("cloudbase", "auth", "action"): "lists five of six values as the set: the listed values are not the declared ones",
    ("cloudbase", "auth", "site"): "states rules across arguments (intl needed for start_auth/login_by_api_key on the international site)",
    ("cloudbase", "auth", "confirm"): "states a rule across arguments (yes when action=logout)",
    ("cloudbase", "queryEnv", "action"): "states rules across arguments (envId, metricName needed for some values)",
    ("cloudbase", "queryEnv", "fields"): "states a rule across arguments (only with action=list)",
    ("cloudbase", "queryEnv", "type"): "states a rule across arguments (only with action=usage)",
    ("cloudbase", "queryEnv", "metricName"): "states a rule across arguments (only with action=metrics, then required); names some values",
    ("cloudbase", "queryEnv", "period"): "states rules across arguments (only with action=metrics; not 86400 for a day or less, not 300 over 3 days)",
    ("cloudbase", "manageEnv", "resources"): "states a rule across arguments (only with action=create)",
    ("cloudbase", "manageEnv", "duration"): "states no range; states a rule across arguments (action=create/renew)",
    ("cloudbase", "manageEnv", "region"): "states rules across arguments (only with action=create; site)",
    ("cloudbase", "manageEnv", "confirm"): "states a rule across arguments (required for paid actions)",
    ("cloudbase", "writeNoSqlDatabaseStructure", "action"): "states a rule across arguments (indexes through updateOptions)",
    ("cloudbase", "manageDataModel", "action"): "states rules across arguments (name needed for get and docs)",
    ("cloudbase", "managePgDatabase", "action"): "states rules across arguments (each action needs other arguments)",
    ("cloudbase", "managePgDatabase", "migrationName"): "states a rule across arguments (required for plan/apply/repair)",
    ("cloudbase", "managePgDatabase", "migrationVersion"): "states a rule across arguments (required for plan/apply/detail/repair)",
    ("cloudbase", "managePgDatabase", "limit"): "states a rule across arguments (only with action=list)",
    ("cloudbase", "managePgDatabase", "offset"): "states no constraint (a default); states a rule across arguments (only with action=list)",
    ("cloudbase", "managePgDatabase", "taskPollTimeoutMs"): "states rules across arguments (only with action=apply; taskId)",
    ("cloudbase", "managePgDatabase", "repairStatus"): "states a rule across arguments (required for repair)",
    ("cloudbase", "queryFunctions", "action"): "states rules across arguments (functionName, requestId, taskId needed for some values)",
    ("cloudbase", "manageFunctions", "action"): "values given as examples (\"例如\", for example)",
    ("cloudbase", "manageFunctions", "func.protocolType"): "states rules across arguments (with protocolParams.wsParams; not for plain HTTP functions)",
    ("cloudbase", "manageFunctions", "func.buildStrategy"): "states rules across arguments (imageConfig needed for image, cloud, local)",
    ("cloudbase", "manageFunctions", "func.imageConfig.imageType"): "states a rule across arguments (inferred from registryId)",
    ("cloudbase", "manageFunctions", "func.imageConfig.build.tag"): "states a rule across arguments (local strategy only); pattern not stated",
    ("cloudbase", "manageFunctions", "func.imageConfig.build.registryCredential.username"): "pattern not stated (a kind of account id only)",
    ("cloudinary", "upload-asset", "upload_request.access_mode"): "deprecated; names the values only in passing, states no constraint",
    ("cloudinary", "upload-asset", "upload_request.type"): "names a value ('upload') the enum does not hold: not correct",
    ("cloudinary", "asset-rename", "RequestBody.to_type"): "states no constraint (the value's word used as a noun)",
    ("cloudinary", "asset-rename", "RequestBody.type"): "states no constraint (the value's word used as a noun)",
    ("cloudinary", "generate-archive", "resource_type"): "lists three of four values as the set: the listed values are not the declared ones",
    ("cloudinary", "list-images", "start_at"): "states a rule across arguments (only without prefix and public_ids)",
    ("cloudinary", "list-images", "fields"): "names two values, no set stated",
    ("cloudinary", "manage-asset-tags", "tags_update_request.command"): "states a rule across arguments (tags ignored with remove_all)",
    ("cloudinary", "manage-asset-context", "context_update_request.command"): "states rules across arguments (context required with add, ignored with remove_all)",
    ("cloudinary", "search-assets", "request.with_field"): "states rules across arguments (fields takes precedence) and about the world (a Tier 2 plan)",
    ("cloudinary", "generate-image", "request.format"): "two of three values, no set stated",
    ("coolify", "tags", "tag_names"): "states a rule across arguments (required for attach)",
    ("dguido", "export_file", "format"): "lists six of nine values as the set: the listed values are not the declared ones",
    ("discourse", "discourse_filter_topics", "page"): "\"0-based\" is an index base, not a stated minimum",
    ("discourse", "discourse_read_topic", "start_post_number"): "\"1-based\" is an index base, not a stated minimum",
    ("discourse", "discourse_list_users", "page"): "\"0-indexed\" is an index base, not a stated minimum",
    ("erpnext", "erpnext_method_call", "http_method"): "states a condition on the value (GET for methods that reject POST)",
    ("erpnext", "erpnext_opportunity_list", "opportunity_from"): "states a rule across arguments (required when party_name is set)",
    ("erpnext", "erpnext_payment_entry_list", "party_type"): "states a rule across arguments (required when party is set)",
    ("erpnext", "erpnext_product_radar", "items"): "prose says 2-8 (and empty allowed); minItems 2 not declared: not exactly declared",
    ("europarl", "correlate_intelligence", "sensitivityLevel"): "two of three values, no set stated",
    ("europarl", "get_all_generated_stats", "yearFrom"): "states no constraint (a default)",
    ("excel", "create_workbook", "sheets"): "states no constraint (a default)",
    ("excel", "set_workbook_settings", "settings.calculation.mode"): "two of three values, no set stated",
    ("excel", "import_csv", "date_order"): "two of three values, no set stated",
    ("excel", "export_csv", "encoding"): "two of four values, no set stated",
    ("excel", "clear_range", "clear"): "two of four values, no set stated",
    ("excel", "transform_range", "transform.text_qualifier"): "states a rule across arguments (text_to_columns only)",
    ("excel", "set_sheet_layout", "layout.rows[].action"): "two of four values; states a limit (7 outline levels) not declared",
    ("excel", "add_conditional_format", "rule.type"): "three of twenty values, no set stated",
    ("excel", "create_chart", "chart_type"): "states a rule across arguments (Excel 2016 types need `at`)",
    ("excel", "create_chart", "options.data_labels.position"): "states rules across arguments (the values allowed depend on the chart type)",
    ("excel", "create_chart", "series[].trendline.order"): "states no constraint (a default); states a condition (polynomial)",
    ("excel", "add_sparklines", "style.show"): "states rules across arguments (markers for line, negative for win_loss)",
    ("excel", "create_pivot_table", "value_fields[].show_as"): "states a rule across arguments (needs base_field except for some values)",
    ("excel", "create_pivot_table", "field_settings[].group_dates"): "values given as examples (\"e.g.\"); states an order not declared",
    ("excel", "add_slicer", "style"): "pattern not stated (examples only)",
    ("fr24", "get_live_flights_positions_light", "airports"): "states a format ([direction:]<code>) not declared (only minLength)",
    ("fr24", "get_flight_summary_full", "airports"): "states a format ([direction:]<code>) not declared (only minLength)",
    ("gdrive", "insertText", "position"): "states a rule across arguments (only with textToFind)",
    ("gdrive", "createParagraphBullets", "bulletPreset"): "two of fourteen values, no set stated",
    ("gworkspace", "get_gmail_message_content", "body_format"): "states a rule across arguments (only when format='full')",
    ("gworkspace", "send_gmail_message", "body_format"): "states a rule across arguments (real markup in the body with html)",
    ("gworkspace", "draft_gmail_message", "body_format"): "states a rule across arguments (real markup in the body with html)",
    ("gworkspace", "manage_contact", "phones_mode"): "states a rule across arguments (on action \"update\")",
    ("gworkspace", "manage_contact", "emails_mode"): "states a rule across arguments (on action \"update\")",
    ("gworkspace", "manage_contact", "organizations_mode"): "states a rule across arguments (on action \"update\")",
    ("gworkspace", "manage_contact", "nicknames_mode"): "states a rule across arguments (on action \"update\")",
    ("gworkspace", "manage_contact", "urls_mode"): "states a rule across arguments (on action \"update\")",
    ("gworkspace", "manage_contact", "user_defined_mode"): "states a rule across arguments (on action \"update\")",
    ("gworkspace", "manage_contact", "relations_mode"): "states a rule across arguments (on action \"update\")",
    ("gworkspace", "manage_contacts_batch", "field"): "states a rule across arguments (for action \"update\", then required)",
    ("headless", "create_discount", "type"): "states a rule across arguments (code requires a code entry)",
    ("hostinger", "agency-hosting_listAgencyPlanWebsitesV1", "website_types"): "values given as examples (\"e.g.\")",
    ("hostinger", "ecommerce_createASalesChannelV1", "type"): "states rules across arguments (name and url by type)",
    ("hostinger", "hosting_listWebsiteFilesAndDirectoriesV1", "file_types"): "values given as examples (\"e.g.\")",
    ("hostinger", "hosting_getNode_jsRuntimeLogsV1", "levels"): "values given as examples (\"e.g.\")",
    ("iterable", "get_campaigns", "page"): "\"starting at 1\" is an index base, not a stated minimum",
    ("iterable", "get_campaign_metrics", "startDateTime"): "not correct: says \"End\" of the range and a format (YYYY-MM-DD HH:MM:SS) other than date-time",
    ("iterable", "get_catalog_item", "itemId"): "pattern not stated",
    ("iterable", "list_experiments", "offset"): "states no constraint (a default)",
    ("iterable", "get_experiment_trends", "startDateTime"): "states a rule across arguments (required when endDateTime is set)",
    ("iterable", "get_templates", "startDateTime"): "states a format (yyyy-MM-dd HH:mm:ss [ZZ]) other than date-time",
    ("karakeep", "search-bookmarks", "searchMode"): "states a rule across arguments (semantic and hybrid need relevance sorting)",
    ("karakeep", "get-tags", "sort"): "states a rule across arguments ('relevance' requires nameContains)",
    ("kieai", "finalize_upload", "media_id"): "pattern not stated (an opaque id)",
    ("kieai", "submit_media_generation", "planId"): "pattern not stated",
    ("lara", "export_glossary", "content_type"): "states a rule across arguments ('csv/table-uni' requires source)",
    ("leanlsp", "lean_code_actions", "line"): "\"1-indexed\" is an index base, not a stated minimum",
    ("leanlsp", "lean_completions", "column"): "\"1-indexed\" is an index base, not a stated minimum",
    ("leanlsp", "lean_get_widgets", "column"): "\"1-indexed\" is an index base, not a stated minimum",
    ("leanlsp", "lean_goal", "column"): "\"1-indexed\" is an index base, not a stated minimum",
    ("leanlsp", "lean_hover_info", "column"): "\"1-indexed\" is an index base, not a stated minimum",
    ("leanlsp", "lean_multi_attempt", "column"): "\"1-indexed\" is an index base, not a stated minimum",
    ("leanlsp", "lean_profile_proof", "line"): "\"1-indexed\" is an index base, not a stated minimum",
    ("leanlsp", "lean_references", "column"): "\"1-indexed\" is an index base, not a stated minimum",
    ("linebot", "push_flex_message", "message.contents.header.aspectRatio"): "states ranges (1-100000, height at most width x 3) not declared",
    ("lunchmoney", "get_transactions", "start_date"): "pattern not stated; states a rule across arguments (required if end_date is set)",
    ("lunchmoney", "split_transaction", "child_transactions[].date"): "pattern not stated (a default)",
    ("lunchmoney", "get_recurring_items", "start_date"): "states a rule across arguments (required if end_date is set)",
    ("lunchmoney", "get_recurring_items", "end_date"): "states a rule across arguments (required if start_date is set)",
    ("lunchmoney", "upsert_budget", "start_date"): "states a rule about the world (a valid budget period start) not declared",
    ("lunchmoney", "remove_budget", "start_date"): "states a rule about the world (a valid budget period start) not declared",
    ("lunchmoney", "get_balance_history", "start_month"): "states rules across arguments (end_month required) and about the world (not in the future)",
    ("lunchmoney", "upsert_account_balance_history", "balances[].month"): "states a rule about the world (a past calendar month) not declared",
    ("metabase", "list_cards", "attributes"): "lists the default attributes, not the set",
    ("ms365", "move-rename-onedrive-item", "body.createdDateTime"): "states it is read-only, which the keywords do not declare",
    ("ms365", "move-rename-onedrive-item", "body.lastModifiedDateTime"): "states it is read-only, which the keywords do not declare",
    ("ms365", "move-rename-onedrive-item", "body.createdByUser.createdDateTime"): "states it is read-only and in UTC, which the keywords do not declare",
    ("ms365", "move-rename-onedrive-item", "body.createdByUser.deletedDateTime"): "states a condition on the value (null when not deleted)",
    ("ms365", "move-rename-onedrive-item", "body.createdByUser.assignedLicenses[].disabledPlans"): "pattern not stated (\"unique identifiers\")",
    ("ms365", "move-rename-onedrive-item", "body.createdByUser.assignedLicenses[].skuId"): "pattern not stated (\"unique identifier\")",
    ("ms365", "move-rename-onedrive-item", "body.createdByUser.assignedPlans[].assignedDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "move-rename-onedrive-item", "body.createdByUser.birthday"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "move-rename-onedrive-item", "body.createdByUser.employeeLeaveDateTime"): "states a rule about the world (permissions needed to write it)",
    ("ms365", "move-rename-onedrive-item", "body.fileSystemInfo.createdDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "move-rename-onedrive-item", "body.fileSystemInfo.lastAccessedDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "move-rename-onedrive-item", "body.fileSystemInfo.lastModifiedDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "move-rename-onedrive-item", "body.pendingOperations.pendingContentUpdate.queuedDateTime"): "states UTC and read-only: not exactly declared",
    ("ms365", "create-calendar", "body.calendarView[].createdDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "create-calendar", "body.calendarView[].attendees[].status.time"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "create-calendar", "body.calendarView[].recurrence.range.endDate"): "states a rule across arguments (required if type is endDate)",
    ("ms365", "create-calendar", "body.calendarView[].recurrence.range.startDate"): "states a rule across arguments (the same value as the event's start)",
    ("ms365", "create-contact-folder", "body.childFolders[].childFolders[].contacts[].birthday"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "create-onenote-notebook", "body.createdDateTime"): "states UTC and read-only: not exactly declared",
    ("ms365", "create-onenote-notebook", "body.lastModifiedDateTime"): "states UTC and read-only: not exactly declared",
    ("ms365", "create-onenote-notebook", "body.sectionGroups[].parentNotebook.sections[].pages[].lastModifiedDateTime"): "states UTC and read-only: not exactly declared",
    ("ms365", "create-todo-task-list", "body.tasks[].bodyLastModifiedDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "create-todo-task-list", "body.tasks[].lastModifiedDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "create-todo-task-list", "body.tasks[].attachments[].lastModifiedDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "create-todo-task-list", "body.tasks[].attachmentSessions[].expirationDateTime"): "states UTC; states a rule about the world (upload before it expires)",
    ("ms365", "create-planner-bucket", "body.tasks[].createdDateTime"): "states UTC and read-only: not exactly declared",
    ("ms365", "create-planner-bucket", "body.tasks[].completedDateTime"): "states UTC and read-only: not exactly declared",
    ("ms365", "create-planner-bucket", "body.tasks[].dueDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "create-planner-bucket", "body.tasks[].startDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "create-subscription", "body.expirationDateTime"): "states UTC and a rule about the world (at least 45 minutes ahead), not declared",
    ("ms365", "create-planner-task-message", "body.createdDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("ms365", "create-planner-task-message", "body.reactions[].reactionEvents[].createdDateTime"): "states UTC; the pattern also allows offsets: not exactly declared",
    ("mysqlberthojoris", "search_schema", "modes"): "lists the default modes; states a rule about the world (read permission)",
    ("mysqlberthojoris", "execute_seed_plan", "batch_size"): "states no constraint (a default)",
    ("n8n", "get_node", "detail"): "two of three values, no set stated",
    ("n8n", "validate_node", "profile"): "states a rule across arguments (for mode=full)",
    ("n8n", "search_templates", "offset"): "states no constraint (a default)",
    ("omnifocus", "add_omnifocus_task", "hierarchyLevel"): "states no range (0 glossed as root)",
    ("omnifocus", "add_omnifocus_task", "repeat.method"): "two of three values, no set stated",
    ("omnifocus", "add_omnifocus_task", "repeat.steps"): "states no constraint (a default)",
    ("omnifocus", "add_omnifocus_task", "repeat.weekdays"): "values given as examples (\"e.g.\"); states a rule across arguments (unit 'week')",
    ("omnifocus", "batch_add_items", "items[].hierarchyLevel"): "states no range (0 glossed as root)",
    ("postgreshenkey", "pg_manage_triggers", "forEach"): "states a rule across arguments (for the create operation)",
    ("respira", "respira_update_page", "edit_target"): "states a condition (when the target is an original page)",
    ("respira", "respira_update_post", "edit_target"): "states a condition (when the target is an original post)",
    ("respira", "respira_inject_builder_content", "mode"): "states a rule across arguments (replace on a page with content requires confirm_replace)",
    ("respira", "respira_inject_builder_content", "edit_target"): "states a condition (when editing an original)",
    ("respira", "respira_inject_builder_content", "divi_version"): "states a condition (required for all Divi calls)",
    ("respira", "respira_generate_activity_report", "framing"): "two of six values, no set stated",
    ("respira", "respira_diagnose_connection", "probe_timeout_ms"): "prose says out-of-range values are clamped; minimum and maximum reject them: not correct",
    ("respira", "respira_update_custom_post", "edit_target"): "states a condition (when the target is an original item)",
    ("respira", "respira_purge_cache", "scope"): "states a rule across arguments (the default depends on post_id)",
    ("respira", "respira_update_element", "edit_target"): "states a rule about the world (live requires a setting or a draft)",
    ("respira", "respira_update_element", "on_ambiguous_match"): "states rules across arguments (identifier_type, identifier_value, match_content)",
    ("respira", "respira_move_element", "edit_target"): "states a rule about the world (live requires a setting or a draft)",
    ("respira", "respira_duplicate_element", "identifier_type"): "names five of six values with conditions on the builder, no set stated",
    ("respira", "respira_duplicate_element", "edit_target"): "states a rule about the world (live requires a setting or a draft)",
    ("respira", "respira_remove_element", "on_ambiguous_match"): "states rules across arguments (identifier_type, identifier_value, match_content)",
    ("respira", "respira_bricks_import_design_tokens", "format"): "two of four values, no set stated",
    ("rollbar", "list-items", "page"): "states no constraint (a default)",
    ("searchconsole", "adsense_report", "metrics"): "lists the default metrics, not the set",
    ("servicenow", "diff_local_component", "on_local_edits"): "states a rule across arguments (with refresh)",
    ("svgmaker", "svgmaker_generate", "quality"): "states a rule across arguments (high forces a square aspect ratio)",
    ("svgmaker", "svgmaker_generate", "aspectRatio"): "states rules across arguments (the default depends on quality)",
    ("svgmaker", "svgmaker_edit", "quality"): "states a rule across arguments (high forces a square aspect ratio)",
    ("svgmaker", "svgmaker_edit", "aspectRatio"): "states rules across arguments (the default depends on quality)",
}


def load(raw, name):
    for fn, opener in ((name + ".json.gz", gzip.open), (name + ".json", open)):
        path = os.path.join(raw, fn)
        if os.path.exists(path):
            with opener(path, "rt", encoding="utf-8") as f:
                return json.load(f)["tools"]
    raise SystemExit(f"no tool list for {name} in {raw}")


def main(raw):
    here = os.path.dirname(os.path.abspath(__file__))
    used = build(here, SOURCES, lambda name: load(raw, name),
                 lambda name, tool, path, desc, decl: EXCLUDED.get((name, tool, path)), cap=CAP)
    stale = set(EXCLUDED) - used
    if stale:
        raise SystemExit(f"labels of no candidate: {sorted(stale)}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "raw"))
