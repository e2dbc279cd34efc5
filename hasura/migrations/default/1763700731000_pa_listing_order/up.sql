-- Issue 38 §2: the PA listing's page is its first rows in issue order (server/reports/billing.ts); read from this index
-- with the amount received per listed PA, not by sorting every PA of the period and summing all their payments first.
create index payment_advices_listing_idx on payment_advices ("issueDate", name, id) where status = 'active' and "paymentStatus" <> 'draft';
