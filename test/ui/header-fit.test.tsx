/**
 * The header on a short and a wide line (header-fit.ts, header-bar.tsx): the names give way first, cut with a
 * marker; the state words, the counts' words and the timers are never cut; the event age moves into the state and
 * then goes before the counts do; several contexts give up their reasons, their counts and the names of the fine
 * ones, in that order, through the same fitting.
 */
import {afterEach, describe, expect, test} from 'vitest';
import {HeaderBar, type HeaderBarProps} from '../../source/ui/components/header-bar.js';
import {pickHeaderVersion, versionWidth} from '../../source/ui/header-fit.js';
import {ThemeContext} from '../../source/ui/theme-context.js';
import {createTheme} from '../../source/ui/theme.js';
import {TicksContext, tickSource} from '../../source/ui/ticks.js';
import {displayWidth} from '../../source/model/display-width.js';
import type {ContextState} from '../../source/state/store.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {cleanupUi, renderUi} from '../helpers/ui.js';

afterEach(cleanupUi);

describe('pickHeaderVersion', () => {
	const version = (left: string, right: number, name = '') => ({left: [{text: left}, {text: name, giveWay: 1, min: 8}], right});
	const versions = [version('x'.repeat(50), 20, 'n'.repeat(20)), version('x'.repeat(40), 20, 'n'.repeat(20)), version('x'.repeat(30), 10)];
	test.each([
		// The richest that fits whole.
		[200, 0],
		[82, 1],
		// None of the richer fits whole, the barest does: whole beats cut.
		[45, 2],
		// Nothing fits: none (the header's last resort is a version without its timers, so it stays one line).
		[10, -1],
	])('%i cells: version %i', (width, index) => {
		expect(pickHeaderVersion(versions, width)).toBe(index);
	});

	test('widths: whole, names at their floors, names gone with their separators (two cells part the right end)', () => {
		const named = {left: [{text: 'x'.repeat(40)}, {text: 'n'.repeat(30), giveWay: 1, min: 8, dropWith: 3}, {text: ' · '}], right: 10};
		expect(versionWidth(named, 'whole')).toBe(85);
		expect(versionWidth(named, 'floor')).toBe(63);
		expect(versionWidth(named, 'drop')).toBe(52);
		// None fits whole: the first that fits with its names at their floors…
		expect(pickHeaderVersion([named, version('x'.repeat(70), 0)], 65)).toBe(0);
		// …or with them gone, before there is no version at all.
		expect(pickHeaderVersion([named, version('x'.repeat(70), 0)], 55)).toBe(0);
		expect(pickHeaderVersion([named], 50)).toBe(-1);
		// Cut to fit, or whole: whole.
		expect(pickHeaderVersion([version('x'.repeat(50), 20, 'n'.repeat(20)), version('x'.repeat(60), 0)], 80)).toBe(1);
	});
});

const t0 = Date.UTC(2026, 10, 30, 11, 0, 0);
const waiting = {phase: 'waiting' as const, startedAt: t0 - 9000, extendMs: 300_000, extendedMs: 0};
const live = (name: string): ContextState => ({name, connection: {status: 'live'}, synced: true});

async function header(props: Partial<HeaderBarProps> & {readonly width: number}, ascii = false): Promise<string> {
	const clock = new FakeClock(t0);
	const theme = createTheme({color: false, ascii, timeZone: 'UTC'});
	const app = renderUi(
		<ThemeContext.Provider value={theme}>
			<TicksContext.Provider value={tickSource(clock)}>
				<HeaderBar context="kind-prod" scope="all namespaces" connection={{status: 'live'}} lastEventAt={() => t0 - 2000} wait={waiting} {...props} />
			</TicksContext.Provider>
		</ThemeContext.Provider>,
		{columns: props.width},
	);
	const frame = await app.waitForFrame(f => f.includes('elapsed'), {what: 'the header'});
	const line = frame.split('\n')[0]!.trimEnd();
	expect(displayWidth(line), line).toBeLessThanOrEqual(props.width);
	return line;
}

const counts = () => '300 · 30 failed · 20 running';

describe('one context', () => {
	test.each<[number, string]>([
		[140, 'planwatch · kind-prod · all namespaces · UTC · ● live · 300 · 30 failed · 20 running   event 2s ago · elapsed 0:09'],
		[113, 'planwatch · kind-prod · all namespaces · UTC · ● live · 300 · 30 failed · 20 running   event 2s ago · elapsed 0:09'],
		// The event age goes before the counts do.
		[112, 'planwatch · kind-prod · all namespaces · UTC · ● live · 300 · 30 failed · 20 running   elapsed 0:09'],
		// Whole without the counts beats cut with them; the event age comes back when it fits.
		[82, 'planwatch · kind-prod · all namespaces · UTC · ● live   event 2s ago · elapsed 0:09'],
		[80, 'planwatch · kind-prod · all namespaces · UTC · ● live   elapsed 0:09'],
		// Too short for the names: they are cut, with a marker; state and timer whole.
		[60, 'planwatch · kind-pr… · all nam… · UTC · ● live   elapsed 0:09'],
	])('%i columns: %s', async (width, expected) => {
		const line = await header({width, counts});
		expect(line.replace(/ {2,}(?=\S+ \d|event|elapsed)/, '   ')).toBe(expected);
	});

	test('the timeout grace keeps its timers at 80 columns (they used to go, and the age with them)', async () => {
		const line = await header({width: 80, context: 'demo', scope: 'default', wait: {...waiting, phase: 'grace'}});
		expect(line).toMatch(/^planwatch · demo · default · UTC · ● live( \(event 2s ago\))? +elapsed 0:09 · timeout reached$/);
	});

	test('a 20-column split: still one line; only there do the timers go', async () => {
		const clock = new FakeClock(t0);
		const app = renderUi(
			<TicksContext.Provider value={tickSource(clock)}>
				<HeaderBar context="kind-prod" scope="default" connection={{status: 'live'}} wait={waiting} width={20} />
			</TicksContext.Provider>,
			{columns: 20},
		);
		const frame = await app.waitForFrame(f => f.startsWith('planwatch'), {what: 'the header'});
		expect(frame.split('\n')).toHaveLength(1);
		expect(displayWidth(frame)).toBeLessThanOrEqual(20);
		expect(frame).not.toContain('elapsed');
	});

	test('a reconnect: its error gives way, the state words stay', async () => {
		const connection = {status: 'reconnecting' as const, attempt: 3, lastError: 'dial tcp 10.0.0.1:6443: connect: connection refused'};
		const line = await header({width: 80, connection, counts});
		expect(line).toMatch(/ · ↻ reconnecting \(at…\) +elapsed 0:09$|↻ reconnecting \([^)]*…/);
		expect(line).toContain('elapsed 0:09');
	});
});

describe('several contexts', () => {
	const contexts: ContextState[] = [
		live('production-eu-west-1'),
		live('dr'),
		{name: 'staging', connection: {status: 'reconnecting', attempt: 2, lastError: 'connection refused'}, synced: false},
	];
	const perContext = () => new Map([['production-eu-west-1', '3 failed, 2 running'], ['dr', '1 failed']]);
	const many = () => '17 · 4 failed · 4 running';
	test.each<[number, boolean, string]>([
		[
			200,
			false,
			'planwatch · all namespaces · UTC · production-eu-west-1 ✔ 3 failed, 2 running · dr ✔ 1 failed · staging ↻ reconnecting (connection refused)' +
				' · 17 · 4 failed · 4 running   event 2s ago · elapsed 0:09',
		],
		[140, false, 'planwatch · all namespaces · UTC · production-eu-west-1 ✔ · dr ✔ · staging ↻ reconnecting · 17 · 4 failed · 4 running   elapsed 0:09'],
		[110, false, 'planwatch · all namespaces · UTC · staging ↻ reconnecting · 2 live · 17 · 4 failed · 4 running   elapsed 0:09'],
		// The total counts go last.
		[100, false, 'planwatch · all namespaces · UTC · staging ↻ reconnecting · 2 live   elapsed 0:09'],
		// 80×24: the state words whole (in --ascii too); a cut shows a marker; nothing goes unmarked.
		[80, false, 'planwatch · all namespaces · UTC · staging ↻ reconnecting · 2 live   elapsed 0:09'],
		[80, true, 'planwatch | all name... | UTC | staging [~~] reconnecting | 2 live   elapsed 0:09'],
		// The scope would be cut under its floor: it goes with its separator, and the context's name is whole again.
		[66, false, 'planwatch · UTC · staging ↻ reconnecting · 2 live   elapsed 0:09'],
	])('%i columns (ascii: %s)', async (width, ascii, expected) => {
		const line = await header({width, contexts, counts: many, contextCounts: perContext}, ascii);
		expect(line.replace(/ {2,}(?=\S+ \d|event|elapsed)/, '   ')).toBe(expected);
	});
});
