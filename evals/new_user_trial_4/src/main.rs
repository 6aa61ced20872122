//! Builds the registry of the five tool sets and prints every prose finding
//! of `Registry::audit()` as one JSON line.

mod cloud;
mod hr;
mod school;
mod shipping;
mod social;

use contract_runtime::prelude::*;

fn registry() -> Registry {
    Registry::builder()
        // HR and payroll
        .tool(hr::get_employee::contract())
        .tool(hr::list_employees::contract())
        .tool(hr::submit_leave_request::contract())
        .tool(hr::record_timesheet::contract())
        .tool(hr::run_payroll_preview::contract())
        .tool(hr::adjust_salary::contract())
        .tool(hr::terminate_employee::contract())
        // shipping and logistics
        .tool(shipping::quote_shipment::contract())
        .tool(shipping::create_shipment::contract())
        .tool(shipping::track_shipment::contract())
        .tool(shipping::schedule_pickup::contract())
        .tool(shipping::update_delivery_address::contract())
        .tool(shipping::list_warehouse_stock::contract())
        .tool(shipping::cancel_shipment::contract())
        // school learning platform
        .tool(school::list_courses::contract())
        .tool(school::get_gradebook::contract())
        .tool(school::record_grade::contract())
        .tool(school::create_assignment::contract())
        .tool(school::enroll_student::contract())
        .tool(school::post_announcement::contract())
        .tool(school::export_transcript::contract())
        // social media scheduling
        .tool(social::schedule_post::contract())
        .tool(social::list_scheduled_posts::contract())
        .tool(social::reschedule_post::contract())
        .tool(social::delete_post::contract())
        .tool(social::get_post_analytics::contract())
        .tool(social::reply_to_comment::contract())
        .tool(social::connect_account::contract())
        // cloud infrastructure
        .tool(cloud::create_vm::contract())
        .tool(cloud::resize_vm::contract())
        .tool(cloud::upsert_dns_record::contract())
        .tool(cloud::delete_dns_record::contract())
        .tool(cloud::create_bucket::contract())
        .tool(cloud::set_bucket_lifecycle::contract())
        .tool(cloud::get_usage_report::contract())
        .build()
        .unwrap_or_else(|e| panic!("the registry is valid: {e}"))
}

fn main() {
    let registry = registry();
    let findings = registry.audit();
    for f in &findings {
        println!("{}", f.to_json());
    }
    eprintln!("{} findings", findings.len());
}
