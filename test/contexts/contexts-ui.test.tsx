/**
 * Several contexts on screen: the header's state per context fitted to the width (a table over widths), and the
 * App's list with its CONTEXT column — and without it for one context.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {exitCodes} from '../../source/core/exit-codes.js';
import type {ContextState} from '../../source/state/store.js';
import {createTheme} from '../../source/ui/theme.js';
import {contextStates, type ContextTier} from '../../source/ui/context-states.js';
import {renderApp} from '../helpers/render-app.js';
import {cleanupUi} from '../helpers/ui.js';
import {backupFailed, mysqlDeploy, snapshotOf} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

const theme = createTheme({color: false, ascii: false});
const live = (name: string): ContextState => ({name, connection: {status: 'live'}, synced: true});
const contexts: ContextState[] = [
	live('prod'),
	{name: 'dr', connection: {status: 'reconnecting', attempt: 3, lastError: 'connection refused'}, synced: false},
	live('staging'),
	{name: 'edge', connection: {status: 'live'}, synced: false, fatal: {message: 'forbidden: user viewer cannot list instances', exitCode: exitCodes.cluster}},
];

describe('the header: one state per context, at each tier', () => {
	const join = (parts: ReturnType<typeof contextStates>) => parts.map(p => p.name + p.rest).join(' · ');
	const counts = new Map([['prod', '3 failed, 1 running'], ['dr', '2 running']]);
	it.each<[ContextTier, string]>([
		['full', 'prod ✔ 3 failed, 1 running · dr ↻ reconnecting (connection refused), 2 running · staging ✔ · edge ✖ failed (forbidden: user viewer cannot list instances)'],
		['states', 'prod ✔ 3 failed, 1 running · dr ↻ reconnecting, 2 running · staging ✔ · edge ✖ failed'],
		['bare', 'prod ✔ · dr ↻ reconnecting · staging ✔ · edge ✖ failed'],
		['counted', 'dr ↻ reconnecting · edge ✖ failed · 2 live'],
	])('%s: %s', (tier, text) => {
		expect(join(contextStates(contexts, tier, theme, counts))).toBe(text);
	});

	it('the name is the part that may be cut; the state words are the rest', () => {
		expect(contextStates(contexts, 'counted', theme)).toEqual([
			{name: 'dr', rest: ' ↻ reconnecting', role: 'warning'},
			{name: 'edge', rest: ' ✖ failed', role: 'error'},
			{name: '', rest: '2 live', role: 'success'},
		]);
	});

	it('a context RBAC keeps from a supporting kind says what its picture lacks', () => {
		const parts = contextStates([{...live('prod'), missing: [{resource: 'Event', message: 'events: forbidden'}]}, live('dr')], 'full', theme);
		expect(parts).toEqual([{name: 'prod', rest: ' ✔ (without events)', role: 'warning'}, {name: 'dr', rest: ' ✔', role: 'success'}]);
	});

	it('a context still connecting or listing says so; ASCII has its own marks', () => {
		const ascii = createTheme({color: false, ascii: true});
		const text = contextStates([{name: 'a', connection: {status: 'connecting'}, synced: false}, {name: 'b', connection: {status: 'live'}, synced: false}, live('c')], 'full', ascii)
			.map(p => p.name + p.rest)
			.join(' | ');
		expect(text).toBe('a [  ] connecting... | b [  ] listing | c [ok]');
	});
});

describe('the list over several contexts', () => {
	it('has a CONTEXT column and the header names each context’s state', async () => {
		const objects = [{...mysqlDeploy(), context: 'prod'}, {...backupFailed(), context: 'dr'}];
		const app = renderApp({
			snapshot: {...snapshotOf({objects}), contexts: [live('prod'), {name: 'dr', connection: {status: 'reconnecting', attempt: 2, lastError: 'connection refused'}, synced: false}]},
			columns: 140,
		});
		const frame = await app.waitForFrame(f => f.includes('CONTEXT'), {what: 'the CONTEXT column'});
		const lines = frame.split('\n');
		// Each context's counts after its state, the whole run's at the end, as one context's header says them.
		expect(lines[0]).toMatch(/ · prod ✔ 1 running · dr ↻ reconnecting \(connection refused\), 1 failed · 2 · 1 failed · 1 running {2,}elapsed 0:00$/);
		expect(lines[0]).not.toContain('kind-prod');
		const titles = lines.find(l => l.includes('CONTEXT'))!;
		expect(titles.indexOf('CONTEXT')).toBeLessThan(titles.indexOf('KIND'));
		expect(lines.some(l => /^\S?\s*dr\s+ActionSet/.test(l.trimStart()) || /\bdr\s{2,}ActionSet/.test(l))).toBe(true);
		expect(lines.some(l => /\bprod\s{2,}Instance/.test(l))).toBe(true);
	});

	it('past the cap of objects: the header says so after the contexts\' states', async () => {
		const objects = [{...mysqlDeploy(), context: 'prod'}];
		const limited = [{resource: 'Event' as const, message: 'more Events about Instances and ActionSets than planwatch holds (20,000): the oldest are dropped'}];
		const app = renderApp({snapshot: {...snapshotOf({objects}), contexts: [live('prod'), live('dr')], limited}, columns: 140});
		const frame = await app.waitForFrame(f => f.includes('oldest events dropped'), {what: 'the cap in the header'});
		expect(frame.split('\n')[0]).toMatch(/prod ✔ 1 running · dr ✔ · oldest events dropped/);
	});

	it('one context: no CONTEXT column, the header as always', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [mysqlDeploy(), backupFailed()]}), columns: 140});
		const frame = await app.waitForFrame(f => f.includes('KIND'));
		expect(frame).not.toContain('CONTEXT');
		expect(frame.split('\n')[0]).toContain('kind-prod');
	});
});
