/**
 * Several contexts on screen: the header's state per context fitted to the width (a table over widths), and the
 * App's list with its CONTEXT column — and without it for one context.
 */
import {afterEach, describe, expect, it} from 'vitest';
import {exitCodes} from '../../source/core/exit-codes.js';
import type {ContextState} from '../../source/state/store.js';
import {createTheme} from '../../source/ui/theme.js';
import {contextStates} from '../../source/ui/context-states.js';
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

describe('the header: one state per context, fitted', () => {
	it.each<[number, string]>([
		[200, 'prod ✔ · dr ↻ reconnecting (connection refused) · staging ✔ · edge ✖ failed (forbidden: user viewer cannot list instances)'],
		[70, 'prod ✔ · dr ↻ reconnecting · staging ✔ · edge ✖ failed'],
		[42, 'dr ↻ reconnecting · edge ✖ failed · 2 live'],
		[41, 'dr ↻ reconnecting · edge ✖ failed · 2 li…'],
		[25, 'dr ↻ reconnecting · edge…'],
		[10, 'dr ↻ reco…'],
		[0, ''],
	])('%i cells: %s', (width, text) => {
		const shown = contextStates(contexts, width, theme, ' · ').map(p => p.text).join(' · ');
		expect(shown).toBe(text);
		expect([...shown].length).toBeLessThanOrEqual(width);
	});

	it('a context RBAC keeps from a supporting kind says what its picture lacks', () => {
		const parts = contextStates([{...live('prod'), missing: [{resource: 'Event', message: 'events: forbidden'}]}, live('dr')], 200, theme, ' · ');
		expect(parts).toEqual([{text: 'prod ✔ (without events)', role: 'warning'}, {text: 'dr ✔', role: 'success'}]);
	});

	it('a context still connecting or listing says so; ASCII has its own marks', () => {
		const ascii = createTheme({color: false, ascii: true});
		const text = contextStates([{name: 'a', connection: {status: 'connecting'}, synced: false}, {name: 'b', connection: {status: 'live'}, synced: false}, live('c')], 200, ascii, ' | ')
			.map(p => p.text)
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
		expect(lines[0]).toMatch(/prod ✔ · dr ↻ reconnecting \(connection refused\)/);
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
		expect(frame.split('\n')[0]).toMatch(/prod ✔ · dr ✔ · oldest events dropped/);
	});

	it('one context: no CONTEXT column, the header as always', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [mysqlDeploy(), backupFailed()]}), columns: 140});
		const frame = await app.waitForFrame(f => f.includes('KIND'));
		expect(frame).not.toContain('CONTEXT');
		expect(frame.split('\n')[0]).toContain('kind-prod');
	});
});
