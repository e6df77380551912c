import {describe, expect, it} from 'vitest';
import {parseArgs} from '../../source/cli/parse-args.js';

const env = {stdoutIsTTY: true, env: {}};
const options = (argv: string[]) => {
	const r = parseArgs(argv, env);
	if (r.kind !== 'run') {
		throw new Error(JSON.stringify(r));
	}

	return r.options;
};

describe('--no-history and --notify', () => {
	it('history is on by default and --no-history turns it off', () => {
		expect(options(['demo']).history).toBe(true);
		expect(options(['demo', '--no-history']).history).toBe(false);
	});

	it('notify is auto by default; always and never are taken', () => {
		expect(options(['demo']).notify).toBe('auto');
		expect(options(['demo', '--notify', 'always']).notify).toBe('always');
		expect(options(['demo', '--notify=never']).notify).toBe('never');
	});

	it('anything else is a usage error, the value sanitized', () => {
		expect(parseArgs(['demo', '--notify=\u001B[2Jx'], env)).toEqual({kind: 'error', message: 'unknown --notify "x": use auto, always or never'});
	});
});
