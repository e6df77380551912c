import {beforeAll, expect, it} from 'vitest';
import {buildBin, runBin} from '../helpers/run-bin.js';

beforeAll(buildBin);

it('an alias bomb on stdin is rejected with exit 2 and one line, without growing', async () => {
	const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
	for (let i = 1; i < 9; i++) {
		const name = String.fromCharCode(97 + i);
		levels.push(`${name}: &${name} [${Array.from({length: 9}, () => `*${String.fromCharCode(96 + i)}`).join(',')}]`);
	}

	for (const output of ['plain', 'json']) {
		const r = await runBin(['-f', '-', '-o', output], {input: levels.join('\n') + '\n'});
		expect(r.code).toBe(2);
		expect(r.stdout).toBe('');
		expect(r.stderr).toBe('planwatch: stdin: rejected: YAML aliases expand to more than 1000000 nodes (an alias bomb?)\n');
	}
});
