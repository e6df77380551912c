import {Box, Text} from 'ink';
import {useMemo} from 'react';
import type {ConnectionState} from '../../state/object-source.js';
import {resourcePlural, type ResourceKind} from '../../core/kube-object.js';
import type {ReplayState} from '../../recording/replay-clock.js';
import type {WaitView} from '../../state/wait-session.js';
import {fitParts, singleLine} from '../cell-text.js';
import {formatDuration, formatDurationWords} from '../../model/format-duration.js';
import {formatAge} from '../format-time.js';
import {timeOfDay, zoneName} from '../../model/clock-time.js';
import type {Role, Theme} from '../theme.js';
import {useTheme} from '../theme-context.js';
import {Line} from './line.js';
import {useTickValue} from '../ticks.js';
import type {ContextState} from '../../state/store.js';
import {displayWidth} from '../../model/display-width.js';
import {contextStates} from '../context-states.js';

/**
 * The connection, in words and an icon: `● live (event 2s ago)`, `↻ reconnecting (attempt 3: …)`. `withAge: false`
 * leaves the event age out (the header then shows it at the right end, see eventAgeText).
 */
export function connectionLabel(
	connection: ConnectionState,
	lastEventAt: number | undefined,
	now: number,
	theme: Theme,
	withAge = true,
): {readonly text: string; readonly role: Role} {
	switch (connection.status) {
		case 'live': {
			const age = lastEventAt === undefined || !withAge ? '' : ` (${eventAgeText(lastEventAt, now)})`;
			return {text: `${theme.glyphs.live} live${age}`, role: 'success'};
		}

		case 'connecting': {
			return {text: `${theme.icon('pending')} connecting${theme.glyphs.ellipsis}`, role: 'muted'};
		}

		case 'waiting-credentials': {
			const limit = connection.limitMs === undefined ? '' : `, gives up after ${formatDurationWords(connection.limitMs)}`;
			return {
				text: `${theme.icon('pending')} waiting for credentials (${singleLine(connection.plugin, theme.glyphs.lineBreak)}${limit})`,
				role: 'warning',
			};
		}

		case 'reconnecting': {
			return {
				text: `${theme.icon('retrying')} reconnecting (attempt ${connection.attempt}: ` +
					`${singleLine(connection.lastError, theme.glyphs.lineBreak)})`,
				role: 'warning',
			};
		}

		case 'static': {
			return {text: singleLine(connection.label, theme.glyphs.lineBreak), role: 'muted'};
		}
	}
}

/** `event 2s ago`, `event 3m ago`: past a minute it changes once a minute. */
export function eventAgeText(lastEventAt: number, now: number): string {
	return `event ${formatAge(now - lastEventAt)} ago`;
}

/** Right side: `elapsed 4:12 · timeout 5:48 (+5m)`. */
export function timerText(wait: WaitView, now: number, theme: Theme): string {
	const parts = [`elapsed ${formatDuration(now - wait.startedAt)}`];
	if (wait.deadlineAt !== undefined && wait.phase === 'waiting') {
		const extended = wait.extendedMs > 0 ? `, extended ${formatDurationWords(wait.extendedMs)}` : '';
		parts.push(`timeout ${formatDuration(wait.deadlineAt - now)} (+${formatDurationWords(wait.extendMs)}${extended})`);
	} else if (wait.phase === 'grace') {
		parts.push('timeout reached');
	}

	return parts.join(` ${theme.glyphs.separator} `);
}

export type HeaderBarProps = {
	readonly context: string;
	readonly scope: string;
	readonly connection: ConnectionState;
	/**
	 * Clock time of the last event, read on each tick (and render): an event moves the age only on the next tick,
	 * so an event alone costs the header no render.
	 */
	readonly lastEventAt?: () => number | undefined;
	readonly wait: WaitView;
	readonly width: number;
	/** A replay: `REPLAY 11:02:10` (the recorded time), its speed, paused or ended. */
	readonly replay?: ReplayState;
	/** `300 · 30 failed · 20 running` for a list of objects (list-rows.ts countsText), read on each tick like lastEventAt. */
	readonly counts?: () => string | undefined;
	/** Supporting collections planwatch may not read (403): shown as `without events (forbidden)`. */
	readonly missing?: ReadonlyArray<{readonly resource: ResourceKind}>;
	/** Kinds past the store's cap (state/object-cap.ts maxObjectsPerKind): `instances past the cap not shown`. */
	readonly limited?: ReadonlyArray<{readonly resource: ResourceKind}>;
	/** Several kubeconfig contexts: one state each (`prod ✔ · dr ↻ reconnecting`) instead of one connection. */
	readonly contexts?: readonly ContextState[];
	/** Everything has been listed once: `connecting…` is over even before the watches report in. */
	readonly synced?: boolean;
	/** A static snapshot: `as of 2021-06-10 09:14:41`, in place of the timers (nothing runs on). */
	readonly asOf?: string;
};

/** Cells of a connection label's state words and a marker: up to its ` (`, or all of it. */
function statusWords(text: string, ellipsis: string): number {
	const open = text.indexOf(' (');
	return open === -1 ? displayWidth(text) : displayWidth(text.slice(0, open)) + displayWidth(ellipsis);
}

/** `without events, blueprints (forbidden)`: what the picture lacks because RBAC hides it. */
export function missingText(missing: ReadonlyArray<{readonly resource: ResourceKind}> | undefined): string | undefined {
	if (!missing || missing.length === 0) {
		return undefined;
	}

	return `without ${missing.map(m => resourcePlural[m.resource]).join(', ')} (forbidden)`;
}

/** `instances past the cap not shown, oldest events dropped`: what the picture lacks because the store is full. */
export function limitedText(limited: ReadonlyArray<{readonly resource: ResourceKind}> | undefined): string | undefined {
	if (!limited || limited.length === 0) {
		return undefined;
	}

	const what = (resource: ResourceKind): string => (
		resource === 'Event' ? 'oldest events dropped' : `${resourcePlural[resource]} past the cap not shown`
	);
	return limited.map(l => what(l.resource)).join(', ');
}

/** `REPLAY 11:02:10 ×2 paused`: what is on screen is a recording, at this recorded moment. */
export function replayText(replay: ReplayState, now: number, theme: Theme): string {
	const speed = replay.speed === 1 ? '' : ` ${theme.ascii ? 'x' : '×'}${replay.speed}`;
	const state = replay.ended ? ' ended' : replay.paused ? ' paused' : '';
	return `REPLAY ${timeOfDay(now, theme.timeZone)}${speed}${state}`;
}

/** The right end of the header: `event 2s ago · elapsed 4:12 · timeout 5:48 (+5m)`. */
function rightText(
	wait: HeaderBarProps['wait'],
	connection: HeaderBarProps['connection'],
	lastEventAt: number | undefined,
	now: number,
	theme: Theme,
): string {
	const sep = ` ${theme.glyphs.separator} `;
	const timers = timerText(wait, now, theme);
	const age = connection.status === 'live' && lastEventAt !== undefined ? eventAgeText(lastEventAt, now) : undefined;
	return age === undefined ? timers : `${age}${sep}${timers}`;
}

function HeaderTimers({text}: {readonly text: (now: number) => string}) {
	return <Text>{useTickValue(text)}</Text>;
}

/**
 * `planwatch · <context> · <scope> · ● live` … `event 2s ago · elapsed 4:12 · timeout 5:48 (+5m)`. Everything
 * that changes every second sits at the right end of the line: the terminal rewrites a line from its first
 * changed character on, so an idle second costs this short suffix, not the whole line.
 */
export function HeaderBar(props: HeaderBarProps) {
	const {context, scope, connection: given, lastEventAt: eventAt, wait, width, missing, limited, replay, contexts, synced, asOf} = props;
	const countsNow = props.counts;
	const theme = useTheme();
	// A wait can end at the first list, before the watches say `live`: its last frame must not say connecting.
	const connection: ConnectionState = synced && given.status === 'connecting'
		? {status: 'static', label: `${theme.glyphs.live} listed`}
		: given;
	const sep = ` ${theme.glyphs.separator} `;
	const right = (now: number) => (asOf === undefined ? rightText(wait, connection, eventAt?.(), now, theme) : '');
	// Only the length of the timers is read here (it changes a few times an hour): the text itself is drawn by
	// `HeaderTimers`, so a tick re-renders that one text and not the whole header line.
	const rightWidth = useTickValue(now => displayWidth(right(now)));
	// On a narrow terminal the timers give way before the connection state does (which then keeps its event age).
	const showRight = asOf === undefined && width >= rightWidth + 40;
	const statusText = useTickValue(now => connectionLabel(connection, eventAt?.(), now, theme, !showRight).text);
	const status = {text: statusText, role: connectionLabel(connection, undefined, 0, theme, false).role};
	const counts = useTickValue(() => countsNow?.());
	// Files: the source label often is the context already (`planwatch · file · default`); say it once.
	const showStatus = !(connection.status === 'static' && connection.label === context);
	const without = [missingText(missing), limitedText(limited)].filter(Boolean).join(', ') || undefined;
	// The recorded moment moves with the clock (ticks and a replay's seeks).
	const replayLine = useTickValue(now => (replay ? replayText(replay, now, theme) : ''));
	// Resolving the local zone builds an Intl.DateTimeFormat (about a millisecond): once, not every tick.
	const zone = useMemo(() => zoneName(theme.timeZone), [theme.timeZone]);
	// The counts are shown whole or not at all: they give way before the connection state and the timers.
	const leftParts = ['planwatch', context, scope, zone, asOf ?? '', showStatus ? statusText : '', without ?? ''];
	const fixedLeft = displayWidth(leftParts.filter(Boolean).join(sep));
	const shownCounts = counts !== undefined && fixedLeft + displayWidth(sep + counts) + (showRight ? rightWidth + 2 : 0) <= width
		? counts
		: undefined;
	// The names give way (the scope first, then the context) before the state words: cut with a marker. A name
	// cut below its floor goes whole, with its separator (never `planwatch ·  · UTC` or a lone `a`), and the rest
	// is fitted again in the room it leaves.
	const floor = 8;
	// A reconnect's error is a message: it goes first, the state words before its `(` stay.
	const statusPart = showStatus
		? [connection.status === 'reconnecting' || connection.status === 'waiting-credentials'
			? {
				text: sep + statusText,
				giveWay: 0,
				min: statusWords(sep + statusText, theme.glyphs.ellipsis),
				keep: statusWords(sep + statusText, theme.glyphs.ellipsis),
			}
			: {text: sep + statusText}]
		: [];
	const fitNames = (names: ReadonlyArray<{readonly text: string; readonly giveWay: number}>) => {
		const fitted = fitParts([
			{text: `planwatch${sep}${replay ? replayLine + sep : ''}`},
			...names.flatMap(name => [{text: name.text, giveWay: name.giveWay, min: floor}, {text: sep}]),
			{text: zone},
			...statusPart,
			{text: [shownCounts ?? '', without ?? ''].filter(Boolean).map(part => sep + part).join('')},
		], width - (showRight ? rightWidth + 2 : 0), theme.glyphs.ellipsis);
		return {shown: names.map((_, i) => fitted[1 + 2 * i]!), status: fitted[1 + 2 * names.length + 1] ?? sep};
	};

	const names = [
		{key: 'context', text: singleLine(context, theme.glyphs.lineBreak), giveWay: 2},
		{key: 'scope', text: singleLine(scope, theme.glyphs.lineBreak), giveWay: 1},
	].filter(name => name.text !== '');
	let kept = names;
	let fitted = fitNames(kept);
	for (;;) {
		// The first to give way (the scope) goes first; the context may then fit in the room it leaves.
		const under = kept.filter((name, i) => displayWidth(fitted.shown[i]!) < Math.min(floor, displayWidth(name.text)));
		if (under.length === 0) {
			break;
		}

		const gone = under.reduce((a, b) => (b.giveWay < a.giveWay ? b : a));
		kept = kept.filter(name => name !== gone);
		fitted = fitNames(kept);
	}

	const shownName = (key: string) => {
		const at = kept.findIndex(name => name.key === key);
		return at === -1 ? '' : fitted.shown[at]!;
	};

	const shownContext = shownName('context');
	const shownScope = shownName('scope');
	const shownStatus = fitted.status;
	let middle;
	if (contexts) {
		// What the contexts may take: the line less its fixed parts (the cap's note is the run's, not a context's) and
		// the timers at the right.
		const capped = limitedText(limited);
		const fixedParts = [
			'planwatch',
			...(replay ? [replayLine] : []),
			singleLine(scope, theme.glyphs.lineBreak),
			zone,
			...(capped ? [capped] : []),
			'',
		];
		const fixed = displayWidth(fixedParts.join(sep));
		const parts = contextStates(contexts, Math.max(0, width - fixed - (showRight ? rightWidth + 2 : 0)), theme, sep);
		middle = (
			<>
				{singleLine(scope, theme.glyphs.lineBreak)}
				{sep}
				<Text {...theme.style('muted')}>{zone}</Text>
				{parts.map(part => (
					<Text key={part.text}>
						{sep}
						<Text {...theme.style(part.role)}>{part.text}</Text>
					</Text>
				))}
				{capped === undefined ? undefined : (
					<>
						{sep}
						<Text {...theme.style('warning')}>{capped}</Text>
					</>
				)}
			</>
		);
	} else {
		middle = (
			<>
				{shownContext === '' ? undefined : <>{shownContext}{sep}</>}
				{shownScope === '' ? undefined : <>{shownScope}{sep}</>}
				{/* The one place the view names its time zone: every clock time below is in it. */}
				<Text {...theme.style('muted')}>{zone}</Text>
				{asOf === undefined ? undefined : (
					<>
						{sep}
						<Text {...theme.style('warning')}>{asOf}</Text>
					</>
				)}
				{showStatus ? (
					<>
						{sep}
						<Text {...theme.style(status.role)}>{shownStatus.slice(sep.length)}</Text>
					</>
				) : undefined}
				{shownCounts === undefined ? undefined : (
					<>
						{sep}
						{shownCounts}
					</>
				)}
				{without === undefined ? undefined : (
					<>
						{sep}
						<Text {...theme.style('warning')}>{without}</Text>
					</>
				)}
			</>
		);
	}

	return (
		<Box width={width}>
			<Box flexGrow={1} flexShrink={1}>
				<Line>
					<Text bold>planwatch</Text>
					{sep}
					{replay ? (
						<>
							<Text {...theme.style('warning')} bold>
								{replayLine}
							</Text>
							{sep}
						</>
					) : undefined}
					{middle}
				</Line>
			</Box>
			{showRight ? (
				<Box flexShrink={0} marginLeft={2}>
					<HeaderTimers text={right} />
				</Box>
			) : undefined}
		</Box>
	);
}
