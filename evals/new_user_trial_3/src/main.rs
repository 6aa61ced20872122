mod common;
mod travel;
mod health;
mod home;
mod docs;
mod pay;

use contract_runtime::prelude::*;

fn main() {
    let registry = Registry::builder()
        .tool(travel::search_flights::contract())
        .tool(travel::book_flight::contract())
        .tool(travel::search_hotels::contract())
        .tool(travel::book_hotel::contract())
        .tool(travel::cancel_booking::contract())
        .tool(travel::get_fare_rules::contract())
        .tool(travel::track_flight_status::contract())
        .tool(health::find_available_slots::contract())
        .tool(health::book_appointment::contract())
        .tool(health::reschedule_appointment::contract())
        .tool(health::cancel_appointment::contract())
        .tool(health::record_vitals::contract())
        .tool(health::prescribe_refill::contract())
        .tool(health::search_patients::contract())
        .tool(home::set_thermostat::contract())
        .tool(home::set_lights::contract())
        .tool(home::operate_lock::contract())
        .tool(home::create_automation::contract())
        .tool(home::read_sensor_history::contract())
        .tool(home::set_alarm_system::contract())
        .tool(home::update_firmware::contract())
        .tool(docs::search_documents::contract())
        .tool(docs::get_document::contract())
        .tool(docs::upload_document::contract())
        .tool(docs::delete_document::contract())
        .tool(docs::summarize_document::contract())
        .tool(docs::ask_question::contract())
        .tool(docs::share_document::contract())
        .tool(pay::get_balance::contract())
        .tool(pay::list_transactions::contract())
        .tool(pay::transfer_funds::contract())
        .tool(pay::create_payment_link::contract())
        .tool(pay::refund_payment::contract())
        .tool(pay::set_card_limit::contract())
        .tool(pay::verify_iban::contract())
        .build()
        .expect("registry builds");
    for f in registry.audit() {
        println!("{}", f.to_json());
    }
}
