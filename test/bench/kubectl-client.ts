/**
 * `kubectl get -w` with its stdout on a pipe, every line stamped when it arrives. Custom columns put the probe's
 * percentCompleted on each line (the marker the planwatch list shows in PROGRESS).
 */
import {spawn} from 'node:child_process';

export type LineClient = {
	readonly pid: number;
	bytes(): number;
	lineCount(): number;
	onLine(listener: (line: string, arrivedAt: number) => void): () => void;
	waitFor(condition: () => boolean, what: string, timeoutMs: number): Promise<number>;
	stop(): Promise<void>;
};

export function startKubectlWatch(kubectl: string, kubeconfig: string, namespace: string, env: Record<string, string>): LineClient {
	const child = spawn(
		kubectl,
		['--kubeconfig', kubeconfig, 'get', 'actionsets.cr.kanister.io', '-n', namespace, '-w', '-o', 'custom-columns=NAME:.metadata.name,PROGRESS:.status.progress.percentCompleted'],
		{env, stdio: ['ignore', 'pipe', 'pipe']},
	);
	const listeners = new Set<(line: string, arrivedAt: number) => void>();
	let bytes = 0;
	let lines = 0;
	let partial = '';
	let stderr = '';
	let exited = false;
	const exit = new Promise<void>(resolve => {
		child.on('exit', () => {
			exited = true;
			resolve();
		});
	});
	child.stderr.setEncoding('utf8');
	child.stderr.on('data', (text: string) => {
		stderr += text;
	});
	child.stdout.setEncoding('utf8');
	child.stdout.on('data', (text: string) => {
		const arrivedAt = performance.now();
		bytes += Buffer.byteLength(text);
		const parts = (partial + text).split('\n');
		partial = parts.pop() ?? '';
		for (const line of parts) {
			lines++;
			for (const listener of [...listeners]) {
				listener(line, arrivedAt);
			}
		}
	});

	const onLine = (listener: (line: string, arrivedAt: number) => void) => {
		listeners.add(listener);
		return () => {
			listeners.delete(listener);
		};
	};

	return {
		pid: child.pid!,
		bytes: () => bytes,
		lineCount: () => lines,
		onLine,
		async waitFor(condition, what, timeoutMs) {
			return new Promise<number>((resolve, reject) => {
				const timer = setTimeout(() => {
					off();
					reject(new Error(`bench: timed out after ${timeoutMs} ms waiting for kubectl: ${what}; ${lines} lines so far; stderr: ${stderr.slice(-500)}`));
				}, timeoutMs);
				const off = onLine((_line, arrivedAt) => {
					if (condition()) {
						clearTimeout(timer);
						off();
						resolve(arrivedAt);
					}
				});
			});
		},
		async stop() {
			if (exited) {
				return;
			}

			child.kill('SIGTERM');
			const killer = setTimeout(() => {
				if (!exited) {
					child.kill('SIGKILL');
				}
			}, 3000);
			await exit;
			clearTimeout(killer);
		},
	};
}
