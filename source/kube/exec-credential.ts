/**
 * Exec credential plugins (users[].exec: kubelogin, aws eks get-token, gke-gcloud-auth-plugin), run by planwatch
 * itself instead of client-node's ExecAuth, which waits for a plugin forever and leaves it running when the
 * process exits. Here a plugin:
 * - runs at most once at a time per user (concurrent requests share the run) and its credential is cached until
 *   its expirationTimestamp;
 * - gets no terminal: stdin is /dev/null and it runs in its own session (so a prompt fails instead of hanging,
 *   and it cannot fight the TUI for the keyboard) — what kubectl does for `interactiveMode: Never`; a plugin
 *   that says `interactiveMode: Always` is refused when planwatch's stdin is no terminal, as kubectl does;
 * - gets KUBERNETES_EXEC_INFO as client-go builds it, with spec.cluster when it asks (provideClusterInfo);
 * - may write at most `maxExecOutputBytes` to stdout, else it is stopped;
 * - is stopped after `execPluginTimeoutMs` (3 minutes: kubelogin's own default for a browser login,
 *   int128/kubelogin `--authentication-timeout-sec`; client-go itself has no limit and would wait forever);
 * - is killed, with everything it started (its process group), when planwatch stops the source and on every
 *   process exit, signals included.
 */
import {spawn, type ChildProcess} from 'node:child_process';
import process from 'node:process';
import type {User} from '@kubernetes/client-node';
import {formatDurationWords} from '../model/format-duration.js';
import {byteSize} from './bounded-read.js';

/** How long a credential plugin may run before planwatch stops it. */
export const execPluginTimeoutMs = 180_000;

/** The authProvider name planwatch gives users whose exec plugin it runs itself. */
export const execAuthProviderName = 'planwatch-exec';

export type ExecConfig = {
	readonly command: string;
	readonly args?: readonly string[];
	readonly env?: ReadonlyArray<{readonly name: string; readonly value: string}>;
	readonly apiVersion?: string;
	/** users[].exec.installHint: shown (sanitized) when the command is not found, as kubectl does. */
	readonly installHint?: string;
	/** users[].exec.interactiveMode: `Never`, `IfAvailable` or `Always`. */
	readonly interactiveMode?: string;
	/** users[].exec.provideClusterInfo: set → the cluster (spec.cluster) goes into KUBERNETES_EXEC_INFO. */
	readonly cluster?: ExecClusterInfo;
};

/** client.authentication.k8s.io Cluster: what client-go hands a plugin that asked for provideClusterInfo. */
export type ExecClusterInfo = {
	readonly server: string;
	readonly 'tls-server-name'?: string;
	readonly 'insecure-skip-tls-verify'?: boolean;
	/** base64 of the CA bundle (from certificate-authority-data, or the certificate-authority file's bytes). */
	readonly 'certificate-authority-data'?: string;
	readonly 'proxy-url'?: string;
	readonly 'disable-compression'?: boolean;
	/** clusters[].extensions['client.authentication.k8s.io/exec'], passed through. */
	readonly config?: unknown;
};

/**
 * An ExecCredential's output larger than this is refused and the plugin stopped: a token or a client certificate
 * and key are a few KiB (client-go reads stdout unbounded; a plugin writing without end must not fill memory).
 */
export const maxExecOutputBytes = 1024 * 1024;

/** The part of a failing plugin's stderr that is kept (its first line is shown). */
const maxStderrBytes = 4000;

/** A plugin that needs a terminal (interactiveMode: Always) while planwatch has none to give it. */
export class ExecInteractiveError extends Error {
	constructor() {
		// client-go's own words (exec.go: refreshCredsLocked), so a search for them finds the fix.
		super('exec plugin cannot support interactive mode: standard input is not a terminal');
		this.name = 'ExecInteractiveError';
	}
}

/** A plugin whose command is not found; carries the kubeconfig's installHint. */
export class ExecNotFoundError extends Error {
	readonly code = 'ENOENT';
	readonly installHint: string | undefined;

	constructor(command: string, installHint: string | undefined) {
		super(`executable ${command} not found`);
		this.name = 'ExecNotFoundError';
		this.installHint = installHint;
	}
}

type Credential = {readonly token?: string; readonly cert?: string; readonly key?: string; readonly expiresAt?: number};

/** A plugin that did not finish in time (classified as a credentials failure). */
export class ExecTimeoutError extends Error {
	constructor(timeoutMs: number) {
		super(`no answer within ${formatDurationWords(timeoutMs)}; planwatch stopped it`);
		this.name = 'ExecTimeoutError';
	}
}

// Every plugin still running, across instances: the exit hook kills them all.
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
		return;
	}

	try {
		// A negative pid is the plugin's process group: a shell script's children go too.
		process.kill(process.platform === 'win32' ? child.pid : -child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			// Already gone.
		}
	}
}

function installExitHook(): void {
	if (exitHookInstalled) {
		return;
	}

	exitHookInstalled = true;
	// 'exit' runs for process.exit() and for the handled signals (they end in process.exit); nothing async here.
	process.on('exit', () => {
		for (const child of running) {
			kill(child, 'SIGKILL');
		}
	});
}

/** Plugins started by this process that have not ended yet (tests). */
export function runningPlugins(): number {
	return running.size;
}

export class ExecCredentials {
	readonly #configs: ReadonlyMap<string, ExecConfig>;
	readonly #timeoutMs: number;
	readonly #now: () => number;
	readonly #cache = new Map<string, Credential>();
	readonly #inflight = new Map<string, Promise<Credential>>();
	readonly #mine = new Set<ChildProcess>();

	readonly #maxOutputBytes: number;
	readonly #stdinIsTerminal: boolean;

	constructor(
		configs: ReadonlyMap<string, ExecConfig>,
		options: {timeoutMs?: number; now?: () => number; maxOutputBytes?: number; stdinIsTerminal?: boolean} = {},
	) {
		this.#configs = configs;
		this.#timeoutMs = options.timeoutMs ?? execPluginTimeoutMs;
		this.#now = options.now ?? Date.now;
		this.#maxOutputBytes = options.maxOutputBytes ?? maxExecOutputBytes;
		this.#stdinIsTerminal = options.stdinIsTerminal ?? process.stdin.isTTY === true;
	}

	get timeoutMs(): number {
		return this.#timeoutMs;
	}

	/** Forget every cached credential: the next request runs the plugin again (after a 401 with the cached one). */
	refresh(): void {
		this.#cache.clear();
	}

	/** client-node's Authenticator interface. */
	isAuthProvider(user: User): boolean {
		return (user.authProvider as {name?: unknown} | undefined)?.name === execAuthProviderName && this.#configs.has(user.name);
	}

	async applyAuthentication(user: User, options: {headers?: Record<string, unknown>; cert?: unknown; key?: unknown}): Promise<void> {
		const credential = await this.credential(user.name);
		if (credential.cert !== undefined && credential.key !== undefined) {
			options.cert = credential.cert;
			options.key = credential.key;
		}

		if (credential.token !== undefined) {
			options.headers ??= {};
			options.headers['Authorization'] = `Bearer ${credential.token}`;
		}
	}

	async credential(userName: string): Promise<Credential> {
		const cached = this.#cache.get(userName);
		if (cached && (cached.expiresAt === undefined || cached.expiresAt > this.#now())) {
			return cached;
		}

		const pending = this.#inflight.get(userName);
		if (pending) {
			return pending;
		}

		const config = this.#configs.get(userName);
		if (!config) {
			throw new Error(`no exec plugin for user ${userName}`);
		}

		const run = this.#run(config).then(
			credential => {
				this.#cache.set(userName, credential);
				return credential;
			},
		).finally(() => {
			this.#inflight.delete(userName);
		});
		this.#inflight.set(userName, run);
		return run;
	}

	/** Kill every plugin this instance started that is still running. */
	stop(): void {
		for (const child of this.#mine) {
			kill(child, 'SIGTERM');
			// A plugin that ignores SIGTERM gets SIGKILL shortly after (and at exit in any case).
			setTimeout(() => {
				kill(child, 'SIGKILL');
			}, 1000).unref();
		}
	}

	async #run(config: ExecConfig): Promise<Credential> {
		if (config.interactiveMode === 'Always' && !this.#stdinIsTerminal) {
			// kubectl refuses the same way rather than run a plugin that will wait for a keyboard.
			throw new ExecInteractiveError();
		}

		installExitHook();
		const env: NodeJS.ProcessEnv = {...process.env};
		for (const {name, value} of config.env ?? []) {
			env[name] = value;
		}

		// What client-go hands every plugin; planwatch never gives it a terminal.
		env['KUBERNETES_EXEC_INFO'] = JSON.stringify({
			apiVersion: config.apiVersion ?? 'client.authentication.k8s.io/v1',
			kind: 'ExecCredential',
			spec: {interactive: false, ...(config.cluster === undefined ? {} : {cluster: config.cluster})},
		});
		return new Promise<Credential>((resolve, reject) => {
			let child: ChildProcess;
			try {
				child = spawn(
					config.command,
					[...(config.args ?? [])],
					{env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32'},
				);
			} catch (error) {
				reject(error);
				return;
			}

			running.add(child);
			this.#mine.add(child);
			const stdout: Buffer[] = [];
			let stdoutBytes = 0;
			let stderr = '';
			let spawnError: unknown;
			let timedOut = false;
			let tooLarge = false;
			const stopChild = () => {
				kill(child, 'SIGTERM');
				setTimeout(() => {
					kill(child, 'SIGKILL');
				}, 1000).unref();
			};

			child.stdout?.on('data', (data: Buffer) => {
				if (tooLarge) {
					return;
				}

				stdoutBytes += data.length;
				if (stdoutBytes > this.#maxOutputBytes) {
					// Stop keeping it and stop the plugin: one line says why.
					tooLarge = true;
					stdout.length = 0;
					stopChild();
					return;
				}

				stdout.push(data);
			});
			child.stderr?.setEncoding('utf8').on('data', (data: string) => {
				if (stderr.length < maxStderrBytes) {
					stderr += data.slice(0, maxStderrBytes - stderr.length);
				}
			});
			const timer = setTimeout(() => {
				timedOut = true;
				stopChild();
			}, this.#timeoutMs);
			timer.unref();
			child.on('error', error => {
				spawnError = error;
			});
			child.on('close', (code, signal) => {
				clearTimeout(timer);
				running.delete(child);
				this.#mine.delete(child);
				if (spawnError !== undefined) {
					reject((spawnError as {code?: unknown}).code === 'ENOENT'
						? new ExecNotFoundError(config.command, config.installHint)
						: spawnError);
				} else if (tooLarge) {
					reject(
						new Error(`its output passed ${byteSize(this.#maxOutputBytes)} (an ExecCredential is a few KiB); ` +
							'planwatch stopped it'),
					);
				} else if (timedOut) {
					reject(new ExecTimeoutError(this.#timeoutMs));
				} else if (code !== 0) {
					// The message's first line is what the user sees (errors.ts: errorText).
					reject(new Error(stderr.trim() || (signal ? `stopped by ${signal}` : `exited with code ${String(code)}`)));
				} else {
					try {
						resolve(parseCredential(Buffer.concat(stdout).toString('utf8')));
					} catch (error) {
						reject(error);
					}
				}
			});
		});
	}
}

/** An ExecCredential's status, as client-go reads it (a token, or a client certificate and key). */
export function parseCredential(stdout: string): Credential {
	let parsed: unknown;
	try {
		parsed = JSON.parse(stdout);
	} catch {
		throw new Error('its output is not an ExecCredential (not JSON)');
	}

	const status = (parsed as {status?: unknown} | null)?.status;
	if (typeof status !== 'object' || status === null) {
		throw new Error('its ExecCredential has no status');
	}

	const {token, clientCertificateData: cert, clientKeyData: key, expirationTimestamp} = status as Record<string, unknown>;
	const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
	if (text(token) === undefined && (text(cert) === undefined || text(key) === undefined)) {
		throw new Error('its ExecCredential has neither a token nor a client certificate and key');
	}

	const expiresAt = typeof expirationTimestamp === 'string' ? Date.parse(expirationTimestamp) : Number.NaN;
	return {
		...(text(token) === undefined ? {} : {token: text(token)}),
		...(text(cert) === undefined || text(key) === undefined ? {} : {cert: text(cert), key: text(key)}),
		...(Number.isNaN(expiresAt) ? {} : {expiresAt}),
	};
}
