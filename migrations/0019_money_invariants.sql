-- Money invariants the database holds itself, whatever code writes (docs/decisions/0028). Written by
-- hand: drizzle does not model triggers, so a migration that rebuilds ledger_lines or refunds must
-- create these again (as 0018 did the append-only ones); one that rebuilds ledger_entries or payments
-- (which the triggers read) must drop the triggers that read it first, or its RENAME fails ("error in
-- trigger …: no such table"), and create them again after. Row triggers fire per row, so each rule holds
-- line by line, for an INSERT … SELECT of many lines across many entries as for one line at a time,
-- whatever the order of an entry's lines.
--
-- An entry's lines: never more than its line_count, and once the last arrives they sum to zero. (An
-- entry left with fewer lines than its count is not caught here: SQLite has no check at commit.)
CREATE TRIGGER `ledger_lines_within_count` AFTER INSERT ON `ledger_lines`
WHEN (SELECT count(*) FROM `ledger_lines` WHERE `entry_id` = NEW.`entry_id`)
	> coalesce((SELECT `line_count` FROM `ledger_entries` WHERE `id` = NEW.`entry_id`), 0)
BEGIN SELECT RAISE(ABORT, 'ledger entry has more lines than its line_count'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_entry_balances` AFTER INSERT ON `ledger_lines`
WHEN (SELECT count(*) FROM `ledger_lines` WHERE `entry_id` = NEW.`entry_id`)
	= (SELECT `line_count` FROM `ledger_entries` WHERE `id` = NEW.`entry_id`)
	AND (SELECT sum(`amount_santim`) FROM `ledger_lines` WHERE `entry_id` = NEW.`entry_id`) <> 0
BEGIN SELECT RAISE(ABORT, 'ledger entry does not balance'); END;--> statement-breakpoint
-- Accounts that hold a credit and may never become a debit: nothing leaves a consultation's escrow
-- beyond what was captured into it, and nothing settles more than was sent. Only a debit line can make
-- a balance a debit, so only a debit line is checked.
CREATE TRIGGER `ledger_escrow_not_overdrawn` AFTER INSERT ON `ledger_lines`
WHEN NEW.`account` = 'escrow' AND NEW.`amount_santim` > 0
	AND (SELECT sum(`amount_santim`) FROM `ledger_lines` WHERE `account` = 'escrow' AND `subject` = NEW.`subject`) > 0
BEGIN SELECT RAISE(ABORT, 'escrow released beyond what it holds'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_payouts_in_transit_not_overdrawn` AFTER INSERT ON `ledger_lines`
WHEN NEW.`account` = 'payouts_in_transit' AND NEW.`amount_santim` > 0
	AND (SELECT sum(`amount_santim`) FROM `ledger_lines` WHERE `account` = 'payouts_in_transit' AND `subject` = NEW.`subject`) > 0
BEGIN SELECT RAISE(ABORT, 'payout settled beyond what was sent'); END;--> statement-breakpoint
CREATE TRIGGER `ledger_refunds_in_transit_not_overdrawn` AFTER INSERT ON `ledger_lines`
WHEN NEW.`account` = 'refunds_in_transit' AND NEW.`amount_santim` > 0
	AND (SELECT sum(`amount_santim`) FROM `ledger_lines` WHERE `account` = 'refunds_in_transit' AND `subject` = NEW.`subject`) > 0
BEGIN SELECT RAISE(ABORT, 'refund settled beyond what was sent'); END;--> statement-breakpoint
-- A payment's refunds that are not failed never sum to more than the payment (a failed one moves no
-- money, but is never larger than the payment either): after an insert, and after a change of amount,
-- status or payment. After, not before: an insert that its unique index turns into nothing (ON CONFLICT
-- DO NOTHING, INSERT OR IGNORE: a second refund of a payment already being refunded) fires nothing.
CREATE TRIGGER `refunds_within_payment_insert` AFTER INSERT ON `refunds`
WHEN NEW.`amount_santim` > (SELECT `amount_santim` FROM `payments` WHERE `id` = NEW.`payment_id`)
	OR (NEW.`status` <> 'failed'
		AND (SELECT sum(`amount_santim`) FROM `refunds` WHERE `payment_id` = NEW.`payment_id` AND `status` <> 'failed')
		> (SELECT `amount_santim` FROM `payments` WHERE `id` = NEW.`payment_id`))
BEGIN SELECT RAISE(ABORT, 'refunds exceed the payment'); END;--> statement-breakpoint
CREATE TRIGGER `refunds_within_payment_update` AFTER UPDATE OF `amount_santim`, `status`, `payment_id` ON `refunds`
WHEN NEW.`amount_santim` > (SELECT `amount_santim` FROM `payments` WHERE `id` = NEW.`payment_id`)
	OR (NEW.`status` <> 'failed'
		AND (SELECT sum(`amount_santim`) FROM `refunds` WHERE `payment_id` = NEW.`payment_id` AND `status` <> 'failed')
		> (SELECT `amount_santim` FROM `payments` WHERE `id` = NEW.`payment_id`))
BEGIN SELECT RAISE(ABORT, 'refunds exceed the payment'); END;
