import {describe, expect, it} from 'vitest';
import {parseArgs} from '../../source/cli/parse-args.js';
import {errorOf, options, pipe, tty} from '../helpers/parse-result.js';

describe('parseArgs: record and replay', () => {
	it('replay FILE with --speed, --from, --wait and an output', () => {
		const o = options(parseArgs(['replay', 'run.ndjson', '--speed', '4', '--from', '2m', '--wait', '--timeout', '10m', '-o', 'json'], pipe));
		expect(o.mode).toBe('replay');
		expect(o.replay).toEqual({file: 'run.ndjson', speed: 4, from: '2m'});
		expect(o).toMatchObject({wait: true, timeoutMs: 600_000, output: 'json', once: false});
		expect(options(parseArgs(['replay', 'run.ndjson'], tty))).toMatchObject({output: 'tui', replay: {file: 'run.ndjson', speed: 1}});
	});

	it('--record FILE while watching a cluster or the demo', () => {
		expect(options(parseArgs(['--record', 'r.ndjson', 'instance/mysql'], tty)).record).toBe('r.ndjson');
		expect(options(parseArgs(['demo', '--record=r.ndjson'], tty))).toMatchObject({mode: 'demo', record: 'r.ndjson'});
		expect(options(parseArgs(['-A'], tty)).record).toBeUndefined();
	});

	it.each([
		[['replay'], 'replay needs the recording: planwatch replay FILE'],
		[['replay', 'a', 'b'], 'unexpected argument "b" after replay FILE'],
		[['replay', 'a', '-f', 'x.yaml'], 'replay reads its FILE: drop -f'],
		[['replay', 'a', '-n', 'prod'], '-n/--namespace needs a cluster; it cannot be used with replay'],
		[['replay', 'a', '--loop'], '--scenario and --loop belong to planwatch demo'],
		[['replay', 'a', '--speed', '0'], 'invalid --speed "0": use a positive number, e.g. 2 or 0.5'],
		[['replay', 'a', '--record', 'b'], '--record needs something that changes (a cluster or demo); it cannot be used with replay'],
		[['-f', 'x.yaml', '--record', 'b'], '--record needs something that changes (a cluster or demo); it cannot be used with -f'],
		[['--from', '2m'], '--from belongs to planwatch replay'],
		[['demo', '--from', '2m'], '--from belongs to planwatch replay'],
		[['--speed', '2'], '--scenario, --speed and --loop belong to planwatch demo'],
		[['--record'], 'flag --record needs a value'],
	])('%j → %s', (argv, message) => {
		expect(errorOf(parseArgs(argv, tty))).toBe(message);
	});
});
