import {Box, Text} from 'ink';
import {memo} from 'react';
import {formatDuration} from '../../model/format-duration.js';
import {formatEta, nodeEta, type Expectation} from '../../model/eta.js';
import type {PlanNode} from '../../model/plan-tree.js';
import {statusText} from '../../model/status.js';
import {clockTime, noteText} from '../../model/clock-time.js';
import {isoMs} from '../../model/iso-time.js';
import {fit, fitParts, fitRight, singleLine, truncate} from '../cell-text.js';
import {displayWidth} from '../../model/display-width.js';
import {roleOf, type Theme} from '../theme.js';
import {useTheme} from '../theme-context.js';
import type {TreeRow} from '../tree-rows.js';
import {elapsedOf} from '../elapsed.js';
import {useTickValue} from '../ticks.js';
import {StatusIcon} from './status-icon.js';
import {SpinnerFrame, TickText} from './tick-text.js';
import {Line} from './line.js';

/** Column widths shared by all rows of a tree so they line up (0 = no such column). */
export type TreeColumns = {readonly name: number; readonly strategy: number; readonly status: number; readonly elapsed: number};

/**
 * Everything left of the strategy column: indent, fold marker, defer arrow, icon, name. A Kanister action's
 * object (`detail`) follows its name; that one row then lines up its status after it, as in the sketch.
 */
export function namePart(
	row: TreeRow,
	theme: Theme,
): {readonly before: string; readonly icon: string; readonly label: string; readonly detail: string} {
	const {node} = row;
	const fold = row.expandable
		? (row.expanded ? theme.glyphs.expanded : theme.glyphs.collapsed)
		: ' '.repeat(theme.glyphs.expanded.length);
	const defer = node.kind === 'deferPhase' ? `${theme.glyphs.defer} ` : '';
	const label = node.kind === 'deferPhase' && node.note ? `${node.name} ${theme.glyphs.separator} ${node.note}` : node.name;
	return {
		before: `${'  '.repeat(row.depth)}${fold} ${defer}`,
		icon: theme.icon(node.state),
		label: singleLine(label, theme.glyphs.lineBreak),
		detail: singleLine(node.detail ?? '', theme.glyphs.lineBreak),
	};
}

/** The last, free-width part of a row: update time of the active plan/action, notes, message. */
export function trailingText(row: TreeRow, now: number, theme: Theme, retries = 0, eta?: string, cause?: string): string {
	const {node} = row;
	const parts: string[] = [];
	// Why it is stuck or failed comes first: it is what the row is read for.
	if (cause) {
		parts.push(cause);
	}

	if (eta) {
		parts.push(eta);
	}

	const updated = isoMs(node.updatedAt);
	if (node.active && updated !== undefined && (node.kind === 'plan' || node.kind === 'action')) {
		parts.push(`updated ${clockTime(updated, now, theme.timeZone)}`);
	}

	if (node.note && node.kind !== 'deferPhase') {
		parts.push(noteText(node, now, theme.timeZone) ?? node.note);
	} else if (node.state === 'retrying' && !node.note) {
		parts.push(retries > 1 ? `retrying (${ordinal(retries)} time)` : 'retrying');
	}

	if (node.message) {
		parts.push(node.message);
	}

	return singleLine(parts.join(` ${theme.glyphs.separator} `), theme.glyphs.lineBreak);
}

/**
 * Whether a row's spinner turns in front of its timer (`⠹ 3:41`) instead of at its icon: the terminal rewrites a
 * line from its first changed character on, and timer and spinner change in the same second, so side by side they
 * cost one short rewrite a second instead of most of the row.
 */
export function spinsByTimer(row: TreeRow, elapsed: number | undefined, theme: Theme): boolean {
	return row.node.state === 'running' && theme.spinner && elapsed !== undefined;
}

export type NodeRowProps = {
	readonly row: TreeRow;
	readonly selected: boolean;
	readonly columns: TreeColumns;
	/** The node's timer (store timings), when it ever ran: numbers, so an unchanged row compares equal. */
	readonly startedAt?: number;
	readonly endedAt?: number;
	/** The start was not seen: the duration is a lower bound. */
	readonly atLeast?: boolean;
	/** Times the node was seen entering `retrying` in this run. */
	readonly retries?: number;
	/** Node id → what past runs say (the ETA history): `~2m left` / `overdue 1m` while it runs. */
	readonly expectations?: ReadonlyMap<string, Expectation>;
	readonly width: number;
	/** Why the node is stuck or failed in a few words (the list's rows): `CrashLoopBackOff · pod web-0`. */
	readonly cause?: string | undefined;
};

/**
 * One line of the tree. Never wraps: the end is cut to the width. Memoized by what it shows (the tree is rebuilt
 * from every new version of the object, so row objects are new while most rows read the same); the timer and
 * the spinner are their own text nodes, so the clock's tick re-renders them and not the row.
 */
export const NodeRow = memo(NodeRowView, sameNodeRowProps);

function NodeRowView({row, selected, columns, startedAt, endedAt, atLeast, retries, expectations, width, cause}: NodeRowProps) {
	const theme = useTheme();
	const {node} = row;
	const role = roleOf(node.state);
	const {before, label, detail} = namePart(row, theme);
	const iconWidth = displayWidth(theme.icon(node.state));
	const nameWidth = Math.max(0, columns.name - displayWidth(before) - iconWidth - 1);
	const etaAt = (now: number) => {
		const eta = expectations && expectations.size > 0 ? nodeEta(node, expectations, startedAt, now) : undefined;
		return eta ? formatEta(eta) : undefined;
	};

	const trailing = useTickValue(now => trailingText(row, now, theme, retries, etaAt(now), cause));
	const overdue = useTickValue(now => etaAt(now)?.startsWith('overdue') ?? false);
	const trailingRole = node.state === 'failed' ? 'error' : node.state === 'retrying' || overdue || cause ? 'warning' : 'muted';
	const timing = startedAt === undefined ? undefined : {startedAt, endedAt};
	const duration = (now: number) => {
		const elapsed = elapsedOf(timing, now);
		return elapsed === undefined ? '' : `${atLeast ? theme.glyphs.atLeast : ''}${formatDuration(elapsed)}`;
	};

	const spinHere = columns.elapsed > 0 && spinsByTimer(row, timing ? 0 : undefined, theme);
	// The timer (and the spinner in front of it) is drawn over blank cells the row keeps for it, so a tick
	// re-measures and redraws those few cells, not the whole row's text; a row too narrow for it draws it inline.
	const cursor = selected ? `${theme.glyphs.cursor} ` : '  ';
	const status = fit(singleLine(statusText(node), theme.glyphs.lineBreak), columns.status, theme.glyphs.ellipsis);
	const tickWidth = useTickValue(now => (
		columns.elapsed === 0 ? 0 : spinHere ? 4 + Math.max(columns.elapsed - 2, duration(now).length) : 2 + columns.elapsed
	));
	// Too long for the width, the message gives way first, then the column padding, the Kanister object, the
	// name and the strategy; the status word and the timer never do.
	const label0 = detail ? label : truncate(label, nameWidth, theme.glyphs.ellipsis);
	const pad = ' '.repeat(Math.max(0, nameWidth - displayWidth(detail ? label : label0) - (detail ? displayWidth(`  ${detail}`) : 0)));
	const strategyText = columns.strategy > 0
		? `  ${fit(singleLine(node.strategy ?? '', theme.glyphs.lineBreak), columns.strategy, theme.glyphs.ellipsis)}`
		: '';
	const [, fittedLabel = '', fittedDetail = '', fittedPad = '', strategy = '', , , fittedTrailing = ''] = fitParts([
		{text: `${cursor}${before}${theme.icon(node.state)} `},
		{text: label0, giveWay: 4, min: 8},
		{text: detail ? `  ${detail}` : '', giveWay: 3, min: 0},
		{text: pad, giveWay: 2, min: 0, mark: false},
		{text: strategyText, giveWay: 5, min: 0},
		{text: `  ${status}`},
		{text: ' '.repeat(tickWidth)},
		{text: trailing ? `  ${trailing}` : '', giveWay: 1, min: 12},
	], width, theme.glyphs.ellipsis);
	// The selected row's name is drawn inverse over its whole column, as before.
	const name = detail ? fittedLabel : fittedLabel + fittedPad;
	const detailText = detail ? fittedDetail + fittedPad : '';
	const shownTrailing = fittedTrailing.startsWith('  ') ? fittedTrailing.slice(2) : '';
	const tickAt = displayWidth(cursor) + displayWidth(before) + iconWidth + 1 + displayWidth(name) + displayWidth(detailText) +
		displayWidth(strategy) + 2 + displayWidth(status);
	const overlaid = columns.elapsed > 0 && tickAt + tickWidth <= width;
	const spinner = (
		<>
			<TickText text={now => ' '.repeat(2 + Math.max(0, columns.elapsed - duration(now).length - 2))} />
			<SpinnerFrame />
		</>
	);
	const afterSpinner = <TickText text={now => ` ${duration(now)}`} />;
	const timer = <TickText text={now => `  ${fitRight(duration(now), columns.elapsed)}`} />;
	let statusAndTimer;
	if (overlaid) {
		statusAndTimer = (
			<>
				<Text {...theme.style(role)}>{status}</Text>
				{' '.repeat(tickWidth)}
			</>
		);
	} else if (spinHere) {
		statusAndTimer = (
			<>
				{/* Status word and spinner in one styled run: Ink replays every earlier style change when it rewrites the
				changed end of a line. */}
				<Text {...theme.style(role)}>
					{status}
					{spinner}
				</Text>
				{afterSpinner}
			</>
		);
	} else {
		statusAndTimer = (
			<>
				<Text {...theme.style(role)}>{status}</Text>
				{columns.elapsed > 0 ? timer : undefined}
			</>
		);
	}

	return (
		<Box width={width}>
			<Line>
				<Text bold={selected}>{cursor}</Text>
				{before}
				<StatusIcon state={node.state} spin={!spinHere} />{' '}
				<Text bold={selected} inverse={selected}>
					{name}
				</Text>
				{detailText ? <Text {...theme.style('muted')}>{detailText}</Text> : undefined}
				{columns.strategy > 0 ? <Text {...theme.style('muted')}>{strategy}</Text> : undefined}
				{'  '}
				{statusAndTimer}
				{shownTrailing ? (
					<Text {...theme.style(trailingRole)}>
						{'  '}
						{shownTrailing}
					</Text>
				) : undefined}
			</Line>
			{overlaid ? (
				<Box position="absolute" left={tickAt}>
					{spinHere ? (
						<Text>
							<Text {...theme.style(role)}>{spinner}</Text>
							{afterSpinner}
						</Text>
					) : (
						<Text>{timer}</Text>
					)}
				</Box>
			) : undefined}
		</Box>
	);
}

/** What a row draws of its node: everything but its children. */
const drawnFields = [
	'id', 'kind', 'name', 'status', 'state', 'statusReason', 'strategy', 'message', 'note', 'detail', 'updatedAt', 'active',
] as const satisfies ReadonlyArray<keyof PlanNode>;

export function sameNodeRowProps(a: NodeRowProps, b: NodeRowProps): boolean {
	return (
		a.selected === b.selected
		&& a.startedAt === b.startedAt
		&& a.endedAt === b.endedAt
		&& a.atLeast === b.atLeast
		&& a.retries === b.retries
		&& a.expectations === b.expectations
		&& a.width === b.width
		&& a.cause === b.cause
		&& a.columns.name === b.columns.name
		&& a.columns.strategy === b.columns.strategy
		&& a.columns.status === b.columns.status
		&& a.columns.elapsed === b.columns.elapsed
		&& (a.row === b.row
			|| (a.row.depth === b.row.depth
				&& a.row.expandable === b.row.expandable
				&& a.row.expanded === b.row.expanded
				&& drawnFields.every(field => a.row.node[field] === b.row.node[field])))
	);
}

/** 2nd, 3rd, 11th, 21st… */
export function ordinal(n: number): string {
	const teen = n % 100 >= 11 && n % 100 <= 13;
	const suffix = teen ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
	return `${n}${suffix}`;
}
