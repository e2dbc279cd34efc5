-- Issue 37 (item 16): a deposit paid back by a refund is `refunded`, no longer `used` (used = deducted on a later
-- PA), so the lists say what the deposit report says. The deposits a refunded refund included take it now.
alter table deposits drop constraint "deposits_depositStatus_check";
alter table deposits add constraint "deposits_depositStatus_check" check ("depositStatus" in ('issued', 'used', 'paid', 'refunded'));
update deposits d set "depositStatus" = 'refunded'
where d."depositStatus" = 'used'
  and exists (select 1 from refunds r where r.status <> 'deleted' and r."refundStatus" = 'refunded' and r."depositIds" ? d.id::text);
