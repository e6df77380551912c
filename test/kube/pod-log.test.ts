/**
 * readPodLog against servers the real apiserver and kubelet stand-in cannot be made to be (127.0.0.1 only): one that
 * sends log bytes without end is read up to `maxBytes` and no further; a multi-byte character split across chunks
 * comes out whole; a refusal is a KubeStatusError with the server's words.
 */
import {createServer, type Server} from 'node:http';
import {afterEach, describe, expect, it} from 'vitest';
import {KubeStatusError} from '../../source/kube/errors.js';
import {loadKubeconfig} from '../../source/kube/kubeconfig.js';
import {podLogPath, readPodLog, type PodLogRequest} from '../../source/kube/pod-log.js';
import {writeKubeconfig} from '../helpers/watch-server.js';

let server: Server | undefined;

afterEach(async () => {
	const s = server;
	server = undefined;
	if (s) {
		s.closeAllConnections();
		await new Promise(resolve => {
			s.close(resolve);
		});
	}
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
	server = createServer(handler);
	await new Promise<void>(resolve => {
		server!.listen(0, '127.0.0.1', resolve);
	});
	const address = server.address() as {port: number};
	return `http://127.0.0.1:${address.port}`;
}

const request: PodLogRequest = {namespace: 'kanister', pod: 'kanister-job-x', container: 'container', previous: false, follow: true, tailLines: 20, limitBytes: 65_536, maxBytes: 10_000};

async function read(url: string, overrides: Partial<PodLogRequest> = {}): Promise<string> {
	const {kubeConfig} = await loadKubeconfig({kubeconfig: await writeKubeconfig({server: url}), env: {}});
	let text = '';
	await readPodLog(kubeConfig, {...request, ...overrides}, piece => {
		text += piece;
	});
	return text;
}

describe('readPodLog', () => {
	it('asks for the tail and the byte limit, and reads a server that never stops only up to maxBytes', async () => {
		let asked = '';
		const url = await serve((req, res) => {
			asked = req.url ?? '';
			res.writeHead(200, {'content-type': 'text/plain'});
			const line = `${'x'.repeat(99)}\n`;
			const pump = (): void => {
				while (res.write(line)) {
					// Until the socket is full; then again whenever the reader drains it (never, once it stopped).
				}

				res.once('drain', pump);
			};

			pump();
		});
		const text = await read(url);
		expect(asked).toBe(podLogPath(request));
		expect(asked).toContain('tailLines=20&limitBytes=65536');
		expect(asked).toContain('follow=true');
		// Resolved (the stream is let go), with exactly maxBytes of the endless answer.
		expect(Buffer.byteLength(text)).toBe(10_000);
	});

	it('decodes a character split across two chunks', async () => {
		const url = await serve((_req, res) => {
			res.writeHead(200, {'content-type': 'text/plain'});
			const bytes = Buffer.from('dump: 100 € done\n');
			const cut = bytes.indexOf(0xe2) + 1;
			res.write(bytes.subarray(0, cut));
			setTimeout(() => res.end(bytes.subarray(cut)), 20);
		});
		expect(await read(url, {follow: false})).toBe('dump: 100 € done\n');
	});

	it('a refusal carries the server\'s words (the kubelet\'s, through the apiserver)', async () => {
		const message = 'container "container" in pod "kanister-job-x" is waiting to start: ContainerCreating';
		const url = await serve((_req, res) => {
			res.writeHead(400, {'content-type': 'application/json'});
			res.end(JSON.stringify({kind: 'Status', apiVersion: 'v1', status: 'Failure', message, reason: 'BadRequest', code: 400}));
		});
		const error = await read(url).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(KubeStatusError);
		expect((error as KubeStatusError).statusCode).toBe(400);
		expect((error as KubeStatusError).message).toBe(message);
	});
});
