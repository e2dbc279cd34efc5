-- Outbox delivery (issue 7 §7): the sender records why a message failed, and each recipient's
-- broadcast/news log follows its messages: queued (in the outbox) → sent or failed (with the reason).

alter table outbox add column "lastError" text;
-- The delivery finds the other messages of a recipient log through payload.logId.
create index outbox_log_idx on outbox ((payload->>'logId'), channel) where payload ? 'logId';

alter table broadcast_logs add column "failureReason" text;
alter table broadcast_logs add constraint broadcast_logs_email_status_check check ("emailStatus" in ('queued', 'sent', 'failed'));
alter table broadcast_logs add constraint broadcast_logs_sms_status_check check ("smsStatus" in ('queued', 'sent', 'failed'));
alter table broadcast_logs add constraint broadcast_logs_notification_status_check check ("notificationStatus" in ('queued', 'sent', 'failed'));

alter table news_logs add column "failureReason" text;
alter table news_logs add constraint news_logs_status_sent_check check ("statusSent" in ('queued', 'sent', 'failed'));
