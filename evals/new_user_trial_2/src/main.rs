mod common;
mod crm;
mod dbadmin;
mod messaging;
mod shop;
mod weather;

use contract_runtime::prelude::*;

fn main() {
    let registry = Registry::builder()
        .tool(crm::search_contacts::contract())
        .tool(crm::get_contact::contract())
        .tool(crm::create_contact::contract())
        .tool(crm::update_deal_stage::contract())
        .tool(crm::log_activity::contract())
        .tool(crm::merge_contacts::contract())
        .tool(crm::export_contacts::contract())
        .tool(weather::current_weather::contract())
        .tool(weather::forecast::contract())
        .tool(weather::historical_weather::contract())
        .tool(weather::geocode::contract())
        .tool(weather::route::contract())
        .tool(weather::nearby_places::contract())
        .tool(weather::set_weather_alert::contract())
        .tool(shop::search_products::contract())
        .tool(shop::get_product::contract())
        .tool(shop::update_price::contract())
        .tool(shop::create_order::contract())
        .tool(shop::refund_order::contract())
        .tool(shop::list_orders::contract())
        .tool(shop::set_inventory::contract())
        .tool(shop::add_product_images::contract())
        .tool(messaging::send_sms::contract())
        .tool(messaging::send_email::contract())
        .tool(messaging::schedule_notification::contract())
        .tool(messaging::create_channel::contract())
        .tool(messaging::mute_user::contract())
        .tool(messaging::get_delivery_status::contract())
        .tool(messaging::update_preferences::contract())
        .tool(dbadmin::run_query::contract())
        .tool(dbadmin::create_backup::contract())
        .tool(dbadmin::restore_backup::contract())
        .tool(dbadmin::drop_table::contract())
        .tool(dbadmin::scale_instance::contract())
        .tool(dbadmin::grant_access::contract())
        .tool(dbadmin::list_slow_queries::contract())
        .build()
        .expect("registry builds");
    let findings = registry.audit();
    println!("{} findings", findings.len());
    for f in &findings {
        println!(
            "tool={} | argument={} | family={} | phrase={:?} | level={} | recognizer={} | check={} | help={} | acknowledged={}",
            f.tool,
            f.argument.as_deref().unwrap_or("-"),
            f.family,
            f.phrase,
            f.level.as_str(),
            f.recognizer,
            f.check.unwrap_or("-"),
            f.help,
            f.acknowledged.unwrap_or("-"),
        );
    }
}
