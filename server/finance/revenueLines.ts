/**
 * The revenue model of FINANCE.md §6, line by line (issue 17, issue 31): what each live PA bills (its
 * totalBeforeGst), split into lines recognised as they fall due, and what was credited back on it. One SQL
 * source for the two that must agree: the revenue recognition report (server/reports/revenue.ts) and the
 * ledger's recognition entries (server/finance/ledger.ts, `recogniseRevenue`), which post each PA's recognised
 * figure from revenue_deferred to revenue_recognised. A line is recognised (`held`) when:
 * - a class card's lesson is delivered: its date is today or earlier (Singapore) — docs/DECISIONS.md; the card's
 *   total is recognised lesson by lesson (total ÷ lessons, the cents left over going to the first lessons);
 * - the rest of the bill (registration, material and other fees, less deductions) once the PA is paid.
 * What was credited back (issued or used suspension credit notes, refunded withdrawal lessons, before GST) comes
 * off deferred revenue first, from the latest lines, then off recognised revenue.
 */

/**
 * The CTEs, ending in `revenue_lines` (pa, class_id, date, cents, held, credited): one row per line of every
 * live PA that `where` (a condition on `pa`, the payment_advices row) admits.
 */
export const revenueLinesSql = (where: string): string => `
  pas as (
    select pa.id, pa."paymentStatus", pa."issueDate", pa."paidAt", pa."classInformations",
      round(coalesce((pa."paymentSummaryStatic"->>'totalBeforeGst')::numeric, 0) * 100)::bigint as billed
    from payment_advices pa
    where pa.status = 'active' and pa."paymentStatus" in ('unpaid', 'paid', 'overpaid') and ${where}
  ), cards as (
    select p.id as pa, card->>'id' as class_id, round(coalesce((card->'responses'->>'total')::numeric, 0) * 100)::bigint as total,
      coalesce(card->'responses'->'lessonIds', '[]'::jsonb) as lesson_ids
    from pas p cross join lateral jsonb_array_elements(p."classInformations") card
  ), card_totals as (
    select pa, sum(total) as classes from cards group by pa
  ), lesson_groups as (
    -- a card's lessons counted by month and held-or-not (hashing, no per-lesson sort: a year at scale is ~10⁵ lessons billed)
    select c.pa, c.class_id, c.total, to_char(l.date, 'YYYY-MM') as month, l.date <= (now() at time zone 'Asia/Singapore')::date as held,
      count(*)::bigint as n, max(l.date) as last
    from cards c cross join lateral jsonb_array_elements_text(c.lesson_ids) lid join lessons l on l.id = lid::uuid
    group by 1, 2, 3, 4, 5
  ), ranked as (
    -- the lessons before this group in date order (held ones come first within a month): its lessons' ranks follow
    select g.*, (sum(n) over (partition by pa, class_id))::bigint as lessons,
      coalesce(sum(n) over (partition by pa, class_id order by month, held desc rows between unbounded preceding and 1 preceding), 0)::bigint as before
    from lesson_groups g
  ), lines as (
    -- lesson k of n gets total ÷ n, plus a cent while k ≤ total mod n: a group of ranks before+1 … before+n sums to this
    select pa, class_id, month || case when held then 'a' else 'b' end as ord, last as date,
      n * (total / lessons) + greatest(0, least(before + n, total % lessons) - before) as cents, held
    from ranked
    union all
    select pa, class_id, class_id, null, total, false from cards where jsonb_array_length(lesson_ids) = 0
    union all
    select p.id, null, '', coalesce((p."paidAt" at time zone 'Asia/Singapore')::date, p."issueDate"),
      p.billed - coalesce(t.classes, 0), p."paymentStatus" in ('paid', 'overpaid')
    from pas p left join card_totals t on t.pa = p.id
  ), credits as (
    select pa, sum(cents) as credited from (
      select coalesce(r."paymentAdviceId", cn."paymentAdviceId") as pa, round(coalesce((cn.summary->>'subTotal')::numeric, 0) * 100)::bigint as cents
      from credit_notes cn left join credit_note_fees f on f.id = cn."creditNoteFeeId" left join receipts r on r.id = f."receiptId"
      where cn.status = 'active' and cn.type = 'suspension' and cn."creditNoteStatus" in ('issued', 'used')
      union all
      select r."paymentAdviceId", round((rc."leftLessonAmount" - coalesce(rc."oweLessonNo", 0) * rc."unitPrice") * 100)::bigint
      from refund_classes rc join refunds rf on rf.id = rc."refundId" join receipts r on r.id = rc."receiptId"
      where rf."refundStatus" = 'refunded' and rf.status = 'active' and rc.status = 'active'
    ) x where pa in (select id from pas) group by pa
  ), cut as (
    select l.pa, least(coalesce(c.credited, 0), coalesce(sum(l.cents) filter (where not l.held), 0)) as deferred_cut,
      greatest(coalesce(c.credited, 0) - coalesce(sum(l.cents) filter (where not l.held), 0), 0) as recognised_cut
    from lines l left join credits c on c.pa = l.pa group by l.pa, c.credited
  ), revenue_lines as (
    select l.pa, l.class_id, l.date, l.cents, l.held,
      greatest(0, least(l.cents, case when l.held then k.recognised_cut else k.deferred_cut end
        - coalesce(sum(l.cents) over (partition by l.pa, l.held order by l.date desc nulls first, l.ord desc rows between unbounded preceding and 1 preceding), 0))) as credited
    from lines l join cut k on k.pa = l.pa
  )`;
