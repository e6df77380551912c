import {describe, expect, it} from 'vitest';
import {maxKeptLines, openRequestLog} from '../../source/cli/request-log.js';

describe('-v request lines', () => {
	it('live: each line is written at once with its time', () => {
		const written: string[] = [];
		const sink = openRequestLog({live: true, write: text => written.push(text), now: () => Date.parse('2026-12-01T10:00:00.5Z')});
		sink.log('GET https://x/a 200 OK in 3 milliseconds');
		expect(written).toEqual(['2026-12-01T10:00:00.500Z GET https://x/a 200 OK in 3 milliseconds\n']);
		expect(sink.flush()).toBe('');
	});

	it('kept (stderr is the TUI\'s terminal): nothing is written until flush, which gives the last lines and what was dropped', () => {
		const written: string[] = [];
		const sink = openRequestLog({live: false, write: text => written.push(text), now: () => 0});
		for (let i = 0; i < maxKeptLines + 5; i++) {
			sink.log(`GET /${i} 200 OK in 1 milliseconds`);
		}

		expect(written).toEqual([]);
		const lines = sink.flush().trimEnd().split('\n');
		expect(lines[0]).toBe(`planwatch: -v: 5 earlier request lines were not kept (the last ${maxKeptLines} follow)`);
		expect(lines).toHaveLength(maxKeptLines + 1);
		expect(lines[1]).toBe('1970-01-01T00:00:00.000Z GET /5 200 OK in 1 milliseconds');
		expect(sink.flush()).toBe('');
	});
});
