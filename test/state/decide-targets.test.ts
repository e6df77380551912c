import {describe, expect, it} from 'vitest';
import {decideTargets} from '../../source/state/wait-decision.js';

const ok = (summary: string) => ({done: true, exitCode: 0, summary}) as const;
const failed = (summary: string) => ({done: true, exitCode: 1, summary}) as const;
const running = (waitingFor: string) => ({done: false, waitingFor}) as const;

describe('decideTargets: the wait decision over all targets', () => {
	it.each<[string, Parameters<typeof decideTargets>, ReturnType<typeof decideTargets>]>([
		['all done and succeeded: 0', [['Instance/a/x'], ['Instance/a/x'], [ok('deploy completed')]], {done: true, result: {exitCode: 0, message: 'deploy completed'}}],
		[
			'failed lines first (a one-line view shows why it is 1), each group in its order',
			[[], ['A', 'B', 'C', 'D'], [ok('a done'), failed('b failed'), ok('c done'), failed('d failed')]],
			{done: true, result: {exitCode: 1, message: 'b failed\nd failed\na done\nc done'}},
		],
		['any failed: 1, every summary, what failed first', [[], ['A', 'B'], [ok('a done'), failed('b failed')]], {done: true, result: {exitCode: 1, message: 'b failed\na done'}}],
		['one still running: wait for it', [[], ['A', 'B'], [ok('a done'), running('b running')]], {done: false, waitingFor: 'b running'}],
		['several running: all named', [[], ['A', 'B'], [running('a'), running('b')]], {done: false, waitingFor: 'a; b'}],
		[
			'a named target missing: wait for it to appear, even if the rest is done',
			[['Instance/a/x', 'ActionSet/a/y'], ['Instance/a/x'], [ok('x done')]],
			{done: false, waitingFor: 'waiting for ActionSet/a/y to appear'},
		],
		['nothing named, nothing present: done (the caller reports nothing in scope before)', [[], [], []], {done: true, result: {exitCode: 0, message: ''}}],
	])('%s', (_, args, want) => {
		expect(decideTargets(...args)).toEqual(want);
	});
});
