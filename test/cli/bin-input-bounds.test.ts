/**
 * What `-f` and `replay` read is bounded, whatever the input is: a character device that never ends, a FIFO or
 * stdin fed forever, a file that grows while it is read, a sparse file past the input limit, binary data. Each is
 * one line on stderr and exit 2, with the peak memory of the process (its own getrusage, written at exit by a
 * preloaded module) far below the 400 MB budget.
 */
import {spawn, spawnSync} from 'node:child_process';
import {appendFileSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, ftruncateSync, createWriteStream} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {binEnv, binPath, buildBin, repoRoot} from '../helpers/run-bin.js';

const temporary = mkdtempSync(path.join(os.tmpdir(), 'planwatch-input-bounds-'));
const hook = path.join(temporary, 'peak-hook.mjs');
writeFileSync(hook, "import {writeFileSync} from 'node:fs';\nprocess.on('exit', () => { writeFileSync(process.env.PEAK_FILE, String(process.resourceUsage().maxRSS)); });\n");

beforeAll(buildBin);
afterAll(() => {
	rmSync(temporary, {recursive: true, force: true});
});

type Run = {code: number | null; stdout: string; stderr: string; peakMiB: number};

let runs = 0;
/** The bin with `feed` writing its stdin (until the pipe closes) or nothing. */
async function run(args: readonly string[], feed?: (stdin: NodeJS.WritableStream) => void): Promise<Run> {
	const peakFile = path.join(temporary, `peak-${runs++}`);
	const child = spawn(process.execPath, [`--import=${hook}`, binPath, ...args], {cwd: repoRoot, env: binEnv({PEAK_FILE: peakFile}), stdio: ['pipe', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', (d: string) => {
		stdout += d;
	});
	child.stderr.setEncoding('utf8').on('data', (d: string) => {
		stderr += d;
	});
	child.stdin.on('error', () => {});
	if (feed) {
		feed(child.stdin);
	} else {
		child.stdin.end();
	}

	const code = await new Promise<number | null>((resolve, reject) => {
		child.on('error', reject);
		child.on('close', resolve);
	});
	return {code, stdout, stderr, peakMiB: Number(readFileSync(peakFile, 'utf8')) / 1024};
}

/** Writes `text` to `stream` for as long as it takes it. */
function forever(text: string): (stream: NodeJS.WritableStream) => void {
	const chunk = text.repeat(Math.ceil(65_536 / text.length));
	return stream => {
		let open = true;
		stream.on('error', () => {
			open = false;
		});
		stream.on('close', () => {
			open = false;
		});
		const more = (): void => {
			while (open && stream.write(chunk)) {
				// Until the pipe is full.
			}

			if (open) {
				stream.once('drain', more);
			}
		};

		more();
	};
}

function expectRefused(r: Run, line: RegExp): void {
	expect(r.code).toBe(2);
	expect(r.stdout).toBe('');
	expect(r.stderr).toMatch(line);
	expect(r.stderr.split('\n')).toHaveLength(2);
	expect(r.peakMiB).toBeLessThan(200);
}

describe('character devices', () => {
	it('-f /dev/zero and replay /dev/zero: binary, refused at the first chunk', async () => {
		expectRefused(await run(['-f', '/dev/zero', '-o', 'plain']), /^planwatch: \/dev\/zero: binary data \(a NUL byte at byte 0\), not YAML or JSON text\n$/);
		expectRefused(await run(['replay', '/dev/zero', '-o', 'plain']), /^planwatch: \/dev\/zero: binary data \(a NUL byte at byte 0\), not YAML or JSON text\n$/);
	});

	it('-f /dev/urandom: binary, refused at the first chunk', async () => {
		expectRefused(await run(['-f', '/dev/urandom', '-o', 'json']), /^planwatch: \/dev\/urandom: (binary data \(a NUL byte|not UTF-8 text \(an invalid byte) at byte \d+\), not YAML or JSON/);
	});
});

describe('regular files', () => {
	it('of NUL bytes are refused at the first byte, whatever their size', async () => {
		const file = path.join(temporary, 'zeros.yaml');
		writeFileSync(file, Buffer.alloc(20 * 1024 * 1024));
		expectRefused(await run(['-f', file]), /: binary data \(a NUL byte at byte 0\), not YAML or JSON text\n$/);
	});

	it('that are not UTF-8 are refused, naming the byte', async () => {
		const file = path.join(temporary, 'latin1.yaml');
		writeFileSync(file, Buffer.concat([Buffer.from('kind: Instance\nmetadata: {name: caf'), Buffer.from([0xe9]), Buffer.from('}\n')]));
		expectRefused(await run(['-f', file]), /latin1\.yaml: not UTF-8 text \(an invalid byte at byte 35\), not YAML or JSON\n$/);
	});

	it('past the input limit are refused before a byte is read (a sparse file)', async () => {
		const file = path.join(temporary, 'sparse.yaml');
		const fd = openSync(file, 'w');
		ftruncateSync(fd, 600 * 1024 * 1024);
		closeSync(fd);
		expectRefused(await run(['-f', file]), /sparse\.yaml: larger than 256 MiB \(the limit of one input\)\n$/);
		expectRefused(await run(['replay', file]), /sparse\.yaml: larger than 512 MiB \(the limit of one input\)\n$/);
		rmSync(file);
	});

	it('that grow while read are bounded the same way (one document that never ends)', async () => {
		const file = path.join(temporary, 'growing.yaml');
		writeFileSync(file, 'kind: Instance\n');
		let stop = false;
		const grow = async (): Promise<void> => {
			while (!stop) {
				appendFileSync(file, 'a: b\n'.repeat(100_000));
				await new Promise(resolve => {
					setTimeout(resolve, 5);
				});
			}
		};

		const growing = grow();
		try {
			// Whichever limit it reaches first: the document's while read, or the input's when it outgrew it before the open.
			expectRefused(
				await run(['-f', file, '-o', 'plain']),
				/growing\.yaml: (line 1: a YAML document larger than 8 MiB \(split it into documents with ---\)|larger than 256 MiB \(the limit of one input\))\n$/,
			);
		} finally {
			stop = true;
			await growing;
		}
	});
});

describe('pipes', () => {
	it('stdin fed forever: refused at the document limit, the writer stopped', async () => {
		expectRefused(await run(['-f', '-', '-o', 'plain'], forever('a: b\n')), /^planwatch: stdin: line 1: a YAML document larger than 8 MiB/);
	});

	it('a FIFO fed forever: the same', async () => {
		const fifo = path.join(temporary, 'fifo.yaml');
		expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
		const writer = createWriteStream(fifo);
		writer.on('error', () => {});
		forever('key: value\n')(writer);
		const r = await run(['-f', fifo, '-o', 'json']);
		writer.destroy();
		expectRefused(r, /fifo\.yaml: line 1: a YAML document larger than 8 MiB/);
	});

	it('a replay of stdin fed forever with one endless line: refused at the line limit', async () => {
		const header = `${JSON.stringify({recording: 'planwatch/1', version: '0', source: 'demo', context: 'demo', namespace: 'n', targets: [], waitFor: [], start: '2026-01-01T00:00:00Z'})}\n`;
		const r = await run(['replay', '-', '-o', 'plain'], stream => {
			stream.write(header);
			forever('{"at":')(stream);
		});
		expect(r.code).toBe(2);
		expect(r.stderr).toBe('planwatch: stdin: line 2: line longer than 32 MiB\n');
		expect(r.peakMiB).toBeLessThan(400);
	});
});
