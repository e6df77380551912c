import {Box, Text} from 'ink';
import {memo, useMemo} from 'react';
import type {ConnectionState} from '../../state/object-source.js';
import {resourcePlural, type ResourceKind} from '../../core/kube-object.js';
import type {ReplayState} from '../../recording/replay-clock.js';
import type {WaitView} from '../../state/wait-session.js';
import {fitParts, singleLine, type LinePart} from '../cell-text.js';
import {formatDuration, formatDurationWords} from '../../model/format-duration.js';
import {formatAge} from '../format-time.js';
import {timeOfDay, zoneName} from '../../model/clock-time.js';
import type {Role, Theme} from '../theme.js';
import {useTheme} from '../theme-context.js';
import {Line} from './line.js';
import {useTickValue} from '../ticks.js';
import type {ContextState} from '../../state/store.js';
import {displayWidth} from '../../model/display-width.js';
import {contextStates, type ContextTier} from '../context-states.js';
import {pickHeaderVersion} from '../header-fit.js';

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
	/** Several contexts: context name → `3 failed, 1 running` (list-rows.ts countsByContext), read like `counts`. */
	readonly contextCounts?: () => ReadonlyMap<string, string>;
	/**
	 * What `counts` and `contextCounts` say of the snapshot the App draws (countsKey): it changes only when their text
	 * does, and then the header renders in the App's frame (objects that come on screen bring their counts along).
	 * Between the App's renders the tick reads the latest (a change off screen renders no App).
	 */
	readonly countsDrawn?: string;
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

/** One string for the counts and each context's (the header's props and its tick values compare it). */
export function countsKey(counts: string | undefined, contextCounts: ReadonlyMap<string, string> | undefined): string {
	return `${counts ?? ''}\u0002${contextCounts ? [...contextCounts].map(pair => pair.join('\u0000')).join('\u0001') : ''}`;
}

type Counts = {readonly counts: string | undefined; readonly perContext: ReadonlyMap<string, string>};

function countsOf(key: string): Counts {
	const at = key.indexOf('\u0002');
	const pairs = key.slice(at + 1);
	return {
		counts: key.slice(0, at) || undefined,
		perContext: new Map(pairs === '' ? [] : pairs.split('\u0001').map(pair => pair.split('\u0000') as [string, string])),
	};
}

function HeaderTimers({text}: {readonly text: (now: number) => string}) {
	return <Text>{useTickValue(text)}</Text>;
}

/** Where the event age goes: at the right end before the timers, in the state (`● live (event 2s ago)`), or nowhere. */
type AgeAt = 'right' | 'status' | 'none';
/** One version of the header line (header-fit.ts): the richest first. */
type Version = {readonly counts: boolean; readonly age: AgeAt; readonly tier: ContextTier; readonly timers?: false};

/**
 * One object list: the counts go after the event age has moved into the state and then gone; several contexts: the
 * reasons go first, then the event age, each context's counts, the names of the fine ones, the total counts.
 */
function versionsOf(contexts: boolean): Version[] {
	// The last version, without the timers, only for a line too short for anything else (a 20-column split): the
	// header must stay one line.
	if (!contexts) {
		return [
			...[true, false].flatMap(counts => (['right', 'status', 'none'] as const).map(age => ({counts, age, tier: 'full' as const}))),
			{counts: false, age: 'status', tier: 'full', timers: false},
		];
	}

	return [
		{counts: true, age: 'right', tier: 'full'},
		{counts: true, age: 'right', tier: 'states'},
		{counts: true, age: 'none', tier: 'states'},
		{counts: true, age: 'none', tier: 'bare'},
		{counts: true, age: 'none', tier: 'counted'},
		{counts: false, age: 'none', tier: 'counted'},
		{counts: false, age: 'none', tier: 'counted', timers: false},
	];
}

/** A drawn part of the left of the line: its text as fitParts takes it, and how it is styled. */
type Drawn = LinePart & {readonly role?: Role; readonly bold?: boolean; readonly name?: 'context' | 'scope'; readonly dropWith?: number};
/** A name is cut to this many cells at least; below, it goes whole with its separator (no lone `a`, no `· ·`). */
const nameFloor = 8;

/**
 * `planwatch · <context> · <scope> · ● live · 300 · 30 failed` … `event 2s ago · elapsed 4:12 · timeout 5:48 (+5m)`.
 * Everything that changes every second sits at the right end of the line: the terminal rewrites a line from its
 * first changed character on, so an idle second costs this short suffix, not the whole line. On a short line
 * (header-fit.ts) the names give way first (cut with a marker), never the state words or the timers.
 */
export const HeaderBar = memo(HeaderBarView);

// A memo: the App renders for every change it draws (a list row), and the header's props stay the same across them
// (names, the store's state objects, getters read on the tick, the counts' text); its fitting measures every variant
// of the line. It renders on its tick values (counts, event age, the version that fits) and on a change of its props.
function HeaderBarView(props: HeaderBarProps) {
	const {context, scope, connection: given, lastEventAt: eventAt, wait, width, missing, limited, replay, contexts, synced, asOf} = props;
	const countsNow = props.counts;
	const contextCountsNow = props.contextCounts;
	const theme = useTheme();
	const e = theme.glyphs.ellipsis;
	// A wait can end at the first list, before the watches say `live`: its last frame must not say connecting.
	const connection: ConnectionState = synced && given.status === 'connecting'
		? {status: 'static', label: `${theme.glyphs.live} listed`}
		: given;
	const sep = ` ${theme.glyphs.separator} `;
	const timers = (now: number) => (asOf === undefined ? timerText(wait, now, theme) : '');
	const age = (now: number) => {
		const at = eventAt?.();
		return asOf === undefined && connection.status === 'live' && at !== undefined ? eventAgeText(at, now) : undefined;
	};

	// The latest counts, read on the tick and at each render (a new `countsDrawn` is one); a string, so an unchanged
	// tally renders nothing.
	const countsNowKey = () => countsKey(countsNow?.(), contextCountsNow?.());
	const shownKey = useTickValue(countsNowKey);
	const shown = useMemo(() => countsOf(shownKey), [shownKey]);
	// Files: the source label often is the context already (`planwatch · file · default`); say it once.
	const showStatus = !contexts && !(connection.status === 'static' && connection.label === context);
	const without = contexts ? undefined : [missingText(missing), limitedText(limited)].filter(Boolean).join(', ') || undefined;
	// The cap's note is the run's, not a context's.
	const capped = contexts ? limitedText(limited) : undefined;
	// The recorded moment moves with the clock (ticks and a replay's seeks).
	const replayLine = useTickValue(now => (replay ? replayText(replay, now, theme) : ''));
	// Resolving the local zone builds an Intl.DateTimeFormat (about a millisecond): once, not every tick.
	const zone = useMemo(() => zoneName(theme.timeZone), [theme.timeZone]);
	const versions = versionsOf(contexts !== undefined);

	const nameDrawn = (name: 'context' | 'scope', text: string, giveWay: number): Drawn => (
		{text: singleLine(text, theme.glyphs.lineBreak), giveWay, min: nameFloor, name, dropWith: displayWidth(sep)}
	);
	// A new version is chosen on the render a change of the counts brings (their tick value or `countsDrawn`).
	const {counts, perContext} = shown;
	const leftOf = (version: Version, statusText: string, dropped: ReadonlySet<string> = new Set()): Drawn[] => {
		const head: Drawn[] = [
			{text: 'planwatch', bold: true},
			{text: sep},
			...(replay ? [{text: replayLine, role: 'warning' as const, bold: true}, {text: sep}] : []),
		];
		const tail: Drawn[] = [
			...(version.counts && counts !== undefined ? [{text: sep}, {text: counts}] : []),
			...(without === undefined ? [] : [{text: sep}, {text: without, role: 'warning' as const}]),
			...(capped === undefined ? [] : [{text: sep}, {text: capped, role: 'warning' as const}]),
		];
		if (contexts) {
			const states = contextStates(contexts, version.tier, theme, perContext);
			return [
				...head,
				...(dropped.has('scope') || scope === ''
					? []
					: [nameDrawn('scope', scope, 1), {text: sep}]),
				{text: zone, role: 'muted'},
				...states.flatMap((part): Drawn[] => [
					{text: sep},
					...(part.name === '' ? [] : [{text: part.name, giveWay: 2, min: 4, role: part.role}]),
					{text: part.rest, role: part.role},
				]),
				...tail,
			];
		}

		const reconnect = connection.status === 'reconnecting' || connection.status === 'waiting-credentials';
		const words = statusWords(statusText, e);
		return [
			...head,
			...([['context', context, 2], ['scope', scope, 1]] as const).flatMap(([name, text, giveWay]): Drawn[] => (
				dropped.has(name) || text === ''
					? []
					: [nameDrawn(name, text, giveWay), {text: sep}]
			)),
			// The one place the view names its time zone: every clock time below is in it.
			{text: zone, role: 'muted'},
			...(asOf === undefined ? [] : [{text: sep}, {text: asOf, role: 'warning' as const}]),
			// A reconnect's error is a message: it goes first, the state words before its `(` stay.
			...(showStatus
				? [{text: sep}, {
					text: statusText,
					role: connectionLabel(connection, undefined, 0, theme, false).role,
					...(reconnect ? {giveWay: 0, min: words, keep: words} : {}),
				}]
				: []),
			...tail,
		];
	};

	const statusAt = (version: Version, now: number) => connectionLabel(connection, eventAt?.(), now, theme, version.age === 'status').text;
	const rightAt = (version: Version, now: number) => {
		const a = version.age === 'right' ? age(now) : undefined;
		const t = version.timers === false ? '' : timers(now);
		return a === undefined ? t : t === '' ? a : `${a}${sep}${t}`;
	};

	// Only which version fits is read here (it changes a few times an hour): the timers are drawn by `HeaderTimers`,
	// so a tick re-renders that one text and not the whole header line.
	// The choice reads only widths (header-fit.ts): a tick whose state texts and right ends keep their widths (the
	// timers, the event age within the same digits) keeps it, without building and fitting every version again.
	// Per render: the render's own inputs (counts, width, names) are in the closure.
	const picked: {key?: string; chosen: number} = {chosen: 0};
	const chosen = useTickValue(now => {
		const ticked = versions.slice(0, -1).map(v => ({status: statusAt(v, now), right: displayWidth(rightAt(v, now))}));
		const key = ticked.map(t => `${displayWidth(t.status)} ${statusWords(t.status, e)} ${t.right}`).join(',');
		if (key !== picked.key) {
			picked.key = key;
			picked.chosen = pickHeaderVersion(ticked.map((t, i) => ({left: leftOf(versions[i]!, t.status), right: t.right})), width, e);
		}

		return picked.chosen;
	});
	const version = versions.at(chosen)!;
	const statusText = useTickValue(now => statusAt(version, now));
	const right = (now: number) => rightAt(version, now);
	const rightWidth = useTickValue(now => displayWidth(right(now)));
	const showRight = rightWidth > 0;
	const room = width - (showRight ? rightWidth + 2 : 0);
	// A name cut below its floor goes whole with its separator, the first to give way (the scope) first, and the rest
	// is fitted again in the room it leaves.
	const dropped = new Set<string>();
	let left = leftOf(version, statusText, dropped);
	let fitted = fitParts(left, room, e);
	for (;;) {
		const under = left.filter((part, i) => (
			part.name !== undefined && displayWidth(fitted[i]!) < Math.min(nameFloor, displayWidth(part.text))
		));
		if (under.length === 0) {
			break;
		}

		dropped.add(under.reduce((a, b) => (b.giveWay! < a.giveWay! ? b : a)).name!);
		left = leftOf(version, statusText, dropped);
		fitted = fitParts(left, room, e);
	}

	return (
		<Box width={width}>
			<Box flexGrow={1} flexShrink={1}>
				<Line>
					{left.map((part, i) => (part.role === undefined && !part.bold
						? fitted[i]
						: (
							<Text key={i} bold={part.bold} {...(part.role ? theme.style(part.role) : {})}>
								{fitted[i]}
							</Text>
						)))}
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
