mod common;
mod tickets;
mod restaurant;
mod fitness;
mod energy;
mod contracts;

use contract_runtime::prelude::*;

fn main() {
    let registry = Registry::builder()
        .tool(tickets::list_events::contract())
        .tool(tickets::get_event::contract())
        .tool(tickets::hold_seats::contract())
        .tool(tickets::purchase_tickets::contract())
        .tool(tickets::transfer_ticket::contract())
        .tool(tickets::refund_order::contract())
        .tool(tickets::search_events::contract())
        .tool(restaurant::find_tables::contract())
        .tool(restaurant::book_table::contract())
        .tool(restaurant::cancel_booking::contract())
        .tool(restaurant::place_order::contract())
        .tool(restaurant::get_menu::contract())
        .tool(restaurant::split_bill::contract())
        .tool(restaurant::leave_review::contract())
        .tool(fitness::log_workout::contract())
        .tool(fitness::get_activity_summary::contract())
        .tool(fitness::set_goal::contract())
        .tool(fitness::record_weight::contract())
        .tool(fitness::join_challenge::contract())
        .tool(fitness::list_personal_records::contract())
        .tool(fitness::sync_device::contract())
        .tool(energy::get_meter_reading::contract())
        .tool(energy::submit_reading::contract())
        .tool(energy::list_tariffs::contract())
        .tool(energy::switch_tariff::contract())
        .tool(energy::set_usage_alert::contract())
        .tool(energy::get_bill::contract())
        .tool(energy::close_account::contract())
        .tool(contracts::create_contract::contract())
        .tool(contracts::add_clause::contract())
        .tool(contracts::send_for_signature::contract())
        .tool(contracts::sign_document::contract())
        .tool(contracts::list_contracts::contract())
        .tool(contracts::void_contract::contract())
        .tool(contracts::download_signed_copy::contract())
        .build()
        .expect("registry builds");
    for f in registry.audit() {
        println!("{}", f.to_json());
    }
}
