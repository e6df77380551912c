/**
 * Loads the kubeconfig the way kubectl does, and refuses to guess: `--kubeconfig`, else every file in
 * KUBECONFIG (merged, first file wins per entry), else ~/.kube/config, else the in-cluster service account.
 * client-node's own loadFromDefault() silently ends at http://localhost:8080 and throws on duplicate names
 * across KUBECONFIG files, so we do the search and the merge here and fail with one line instead.
 */
import {X509Certificate} from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {KubeConfig, loadYaml, type Cluster, type Context, type User} from '@kubernetes/client-node';
import {sanitizeLine} from '../model/sanitize.js';
import {exitCodes} from '../core/exit-codes.js';
import {PlanwatchError} from '../core/errors.js';
import {errorText, nearMiss} from './errors.js';
import {execAuthProviderName, ExecCredentials, type ExecClusterInfo, type ExecConfig} from './exec-credential.js';

export type LoadedKubeconfig = {
	/** Ready to use: current context set, plain-http clusters accepted. */
	readonly kubeConfig: KubeConfig;
	/** Shown in the header; `in-cluster` for the service account. */
	readonly contextName: string;
	readonly clusterName: string;
	readonly server: string;
	readonly userName: string;
	/** `-n`, else the context's namespace, else `default`. */
	readonly namespace: string;
	/** Basename of the exec credential plugin (e.g. `kubelogin`), when the user has one. */
	readonly credentialPlugin?: string;
	/** Files that were read, or `in-cluster`. */
	readonly sources: readonly string[];
	/** Runs the exec credential plugin (bounded, killed on stop and exit), when the user has one. */
	readonly credentials?: ExecCredentials;
};

export type KubeconfigOptions = {
	/** --kubeconfig */
	readonly kubeconfig?: string;
	/** --context */
	readonly context?: string;
	/** -n / --namespace */
	readonly namespace?: string;
	/** Defaults to process.env (KUBECONFIG, HOME, KUBERNETES_SERVICE_HOST/PORT). */
	readonly env?: NodeJS.ProcessEnv;
	/** Prefix for /var/run/secrets/kubernetes.io/serviceaccount (tests). */
	readonly serviceAccountRoot?: string;
	/** How long an exec credential plugin may run (tests); default execPluginTimeoutMs. */
	readonly execTimeoutMs?: number;
	/** Whether planwatch's stdin is a terminal, for `interactiveMode: Always` (tests); default process.stdin.isTTY. */
	readonly stdinIsTerminal?: boolean;
};

/** A kubeconfig problem: one line, with its exit code (usage: the flag was wrong; cluster: the configuration is). */
export class KubeconfigError extends PlanwatchError {
	constructor(message: string, exitCode: typeof exitCodes.usage | typeof exitCodes.cluster) {
		super(message, exitCode);
	}
}

export const noKubeconfigMessage = 'no kubeconfig found (set KUBECONFIG or --kubeconfig)';

const serviceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

/** True for the config client-node's loadFromDefault() invents when it finds nothing. */
export function isLocalhostFallback(kubeConfig: KubeConfig): boolean {
	const cluster = kubeConfig.getCurrentCluster();
	return kubeConfig.getCurrentContext() === 'loaded-context'
		&& cluster?.name === 'cluster'
		&& cluster.server === 'http://localhost:8080'
		&& kubeConfig.getCurrentUser()?.name === 'user';
}

/** What client-node's Cluster drops but an exec plugin's spec.cluster carries, by cluster name. */
type ClusterExtras = {readonly execConfig?: unknown; readonly disableCompression?: boolean};

type Parsed = {
	clusters: Cluster[];
	users: User[];
	contexts: Context[];
	currentContext: string | undefined;
	extras?: ReadonlyMap<string, ClusterExtras>;
};

const execExtensionName = 'client.authentication.k8s.io/exec';

function clusterExtras(document: object): Map<string, ClusterExtras> {
	const extras = new Map<string, ClusterExtras>();
	const clusters = (document as {clusters?: unknown}).clusters;
	for (const entry of Array.isArray(clusters) ? clusters as unknown[] : []) {
		const {name, cluster} = (entry ?? {}) as {name?: unknown; cluster?: Record<string, unknown>};
		if (typeof name !== 'string' || typeof cluster !== 'object' || cluster === null) {
			continue;
		}

		const extensions = Array.isArray(cluster['extensions']) ? cluster['extensions'] as unknown[] : [];
		const exec = extensions.find(e => (e as {name?: unknown} | null)?.name === execExtensionName) as {extension?: unknown} | undefined;
		const disableCompression = cluster['disable-compression'] === true;
		extras.set(name, {
			...(exec?.extension === undefined ? {} : {execConfig: exec.extension}),
			...(disableCompression ? {disableCompression} : {}),
		});
	}

	return extras;
}

function readFile(file: string, named: boolean): Parsed {
	let text: string;
	try {
		text = fs.readFileSync(file, 'utf8');
	} catch (error) {
		const code = (error as {code?: string}).code;
		if (code === 'ENOENT') {
			throw new KubeconfigError(`kubeconfig ${file} not found`, named ? exitCodes.usage : exitCodes.cluster);
		}

		const reason = code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : errorText(error);
		throw new KubeconfigError(`cannot read kubeconfig ${file}: ${reason}`, named ? exitCodes.usage : exitCodes.cluster);
	}

	if (text.trim() === '') {
		return {clusters: [], users: [], contexts: [], currentContext: undefined};
	}

	const invalid = (reason: string) => new KubeconfigError(`kubeconfig ${file} is not valid: ${reason}`, exitCodes.cluster);
	let document: unknown;
	try {
		document = loadYaml(text);
	} catch (error) {
		throw invalid(errorText(error));
	}

	if (document === null || document === undefined) {
		return {clusters: [], users: [], contexts: [], currentContext: undefined};
	}

	if (typeof document !== 'object' || Array.isArray(document)) {
		throw invalid('not a kubeconfig (expected a mapping with clusters, users and contexts)');
	}

	const single = new KubeConfig();
	try {
		single.loadFromString(text);
	} catch (error) {
		throw invalid(errorText(error));
	}

	// Relative certificate-authority / client-certificate paths are relative to the file that names them.
	single.makePathsAbsolute(path.dirname(path.resolve(file)));
	return {
		clusters: single.getClusters(),
		users: single.getUsers(),
		contexts: single.getContexts(),
		currentContext: single.getCurrentContext() || undefined,
		extras: clusterExtras(document),
	};
}

/** kubectl's merge: for each named entry and for current-context, the first file that sets it wins. */
function merge(files: readonly Parsed[]): Parsed {
	const firstByName = <T extends {name: string}>(lists: ReadonlyArray<readonly T[]>): T[] => {
		const seen = new Map<string, T>();
		for (const list of lists) {
			for (const item of list) {
				if (!seen.has(item.name)) {
					seen.set(item.name, item);
				}
			}
		}

		return [...seen.values()];
	};

	const extras = new Map<string, ClusterExtras>();
	for (const file of files) {
		for (const [name, extra] of file.extras ?? []) {
			if (!extras.has(name)) {
				extras.set(name, extra);
			}
		}
	}

	return {
		clusters: firstByName(files.map(f => f.clusters)),
		users: firstByName(files.map(f => f.users)),
		contexts: firstByName(files.map(f => f.contexts)),
		currentContext: files.find(f => f.currentContext)?.currentContext,
		extras,
	};
}

function inCluster(env: NodeJS.ProcessEnv, root: string): Parsed | undefined {
	const host = env['KUBERNETES_SERVICE_HOST'];
	const port = env['KUBERNETES_SERVICE_PORT'];
	const tokenFile = `${root}${serviceAccountDir}/token`;
	if (!host || !port || !fs.existsSync(tokenFile)) {
		return undefined;
	}

	const serverHost = host.includes(':') ? `[${host}]` : host;
	const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
	let namespace: string | undefined;
	try {
		namespace = fs.readFileSync(`${root}${serviceAccountDir}/namespace`, 'utf8').trim() || undefined;
	} catch {
		namespace = undefined;
	}

	return {
		clusters: [{
			name: 'in-cluster',
			server: `${scheme}://${serverHost}:${port}`,
			caFile: `${root}${serviceAccountDir}/ca.crt`,
			skipTLSVerify: false,
		}],
		// The token file is re-read on every request: projected service account tokens rotate.
		users: [{name: 'in-cluster', authProvider: {name: 'tokenFile', config: {tokenFile}}}],
		contexts: [{name: 'in-cluster', cluster: 'in-cluster', user: 'in-cluster', ...(namespace ? {namespace} : {})}],
		currentContext: 'in-cluster',
	};
}

function homeDir(env: NodeJS.ProcessEnv): string | undefined {
	return env['HOME'] ?? env['USERPROFILE'] ?? (env === process.env ? os.homedir() : undefined);
}

function listNames(items: ReadonlyArray<{name: string}>): string {
	const names = items.map(i => sanitizeLine(i.name, 80));
	return names.length > 6 ? `${names.slice(0, 6).join(', ')}, …` : names.join(', ');
}

function execConfig(user: User | undefined, cluster?: ExecClusterInfo): ExecConfig | undefined {
	const exec = (user?.exec ?? (user?.authProvider as {config?: {exec?: unknown}} | undefined)?.config?.exec) as Record<string, unknown>
		| undefined;
	if (typeof exec?.['command'] !== 'string' || exec['command'] === '') {
		return undefined;
	}

	const args = Array.isArray(exec['args']) ? exec['args'].filter((a): a is string => typeof a === 'string') : [];
	const env = Array.isArray(exec['env'])
		? (exec['env'] as unknown[]).filter((e): e is {name: string; value: string} =>
			typeof (e as {name?: unknown})?.name === 'string' && typeof (e as {value?: unknown})?.value === 'string')
		: [];
	const text = (key: string) => (typeof exec[key] === 'string' && exec[key] !== '' ? {[key]: exec[key]} : {});
	return {
		command: exec['command'],
		args,
		env,
		...text('apiVersion'),
		...text('installHint'),
		...text('interactiveMode'),
		...(exec['provideClusterInfo'] === true && cluster ? {cluster} : {}),
	};
}

/** spec.cluster for a plugin that asks (provideClusterInfo), as client-go's ConfigToExecCluster builds it. */
function execClusterInfo(cluster: Cluster, extras: ClusterExtras | undefined): ExecClusterInfo {
	let caData = cluster.caData;
	if (!caData && cluster.caFile) {
		try {
			caData = fs.readFileSync(cluster.caFile).toString('base64');
		} catch {
			// An unreadable CA file fails the connection itself, with its own message.
			caData = undefined;
		}
	}

	return {
		server: cluster.server,
		...(cluster.tlsServerName ? {'tls-server-name': cluster.tlsServerName} : {}),
		...(cluster.skipTLSVerify ? {'insecure-skip-tls-verify': true} : {}),
		...(caData ? {'certificate-authority-data': caData} : {}),
		...(cluster.proxyUrl ? {'proxy-url': cluster.proxyUrl} : {}),
		...(extras?.disableCompression ? {'disable-compression': true} : {}),
		...(extras?.execConfig === undefined ? {} : {config: extras.execConfig}),
	};
}

function execPlugin(user: User | undefined): string | undefined {
	const exec = execConfig(user);
	return exec ? sanitizeLine(path.basename(exec.command), 80) : undefined;
}

/**
 * Users with an exec plugin get planwatch's own runner (bounded, killed on exit) instead of client-node's:
 * their exec entry is swapped for an authProvider only that runner answers to.
 */
function withExecRunner(
	users: readonly User[],
	runner: {timeoutMs?: number; stdinIsTerminal?: boolean},
	cluster: ExecClusterInfo,
): {users: User[]; credentials?: ExecCredentials} {
	const configs = new Map<string, ExecConfig>();
	const rewritten = users.map(user => {
		const exec = execConfig(user, cluster);
		if (!exec) {
			return user;
		}

		configs.set(user.name, exec);
		const {exec: _exec, authProvider: _authProvider, ...rest} = user;
		return {...rest, authProvider: {name: execAuthProviderName, config: {}}};
	});
	return configs.size === 0 ? {users: rewritten} : {users: rewritten, credentials: new ExecCredentials(configs, runner)};
}

/** True when `pem` holds at least one certificate (Go's AppendCertsFromPEM, which client-go requires to succeed). */
function holdsCertificate(pem: string): boolean {
	for (const block of pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []) {
		try {
			// Parsing is the check.
			new X509Certificate(block);
			return true;
		} catch {
			// Try the next block.
		}
	}

	return false;
}

/**
 * certificate-authority-data that holds no certificate fails here, as kubectl fails ("unable to load root
 * certificates"): Node would ignore it and the handshake would blame the server's certificate instead.
 */
function checkCertificateAuthority(cluster: Cluster, where: string): void {
	// A certificate-authority file is read when connecting (client-node); an in-cluster ca.crt may appear later.
	if (cluster.caData && !holdsCertificate(Buffer.from(cluster.caData, 'base64').toString('latin1'))) {
		throw new KubeconfigError(
			`certificate-authority-data of cluster ${sanitizeLine(cluster.name, 80)} in ${where} holds no PEM certificate (unable to ` +
			'load root certificates)',
			exitCodes.cluster,
		);
	}
}

/** The names of every context of the kubeconfig (`--all-contexts`), in its order. */
export function kubeconfigContextNames(options: KubeconfigOptions = {}): string[] {
	return readKubeconfig(options).parsed.contexts.map(c => c.name);
}

/** The kubeconfig as kubectl finds it: --kubeconfig, else KUBECONFIG (merged), else ~/.kube/config, else in-cluster. */
function readKubeconfig(options: KubeconfigOptions): {parsed: Parsed; sources: string[]} {
	const env = options.env ?? process.env;
	let parsed: Parsed;
	let sources: string[];

	if (options.kubeconfig !== undefined && options.kubeconfig !== '') {
		parsed = readFile(options.kubeconfig, true);
		sources = [options.kubeconfig];
	} else if (env['KUBECONFIG']) {
		// Like kubectl, files in KUBECONFIG that do not exist are skipped.
		const files = env['KUBECONFIG'].split(path.delimiter).filter(f => f !== '');
		sources = files.filter(f => fs.existsSync(f));
		if (sources.length === 0) {
			throw new KubeconfigError(
				`${noKubeconfigMessage}: KUBECONFIG lists ${files.map(f => sanitizeLine(f, 200)).join(', ')} but none exists`,
				exitCodes.cluster,
			);
		}

		parsed = merge(sources.map(f => readFile(f, false)));
	} else {
		const home = homeDir(env);
		const defaultFile = home ? path.join(home, '.kube', 'config') : undefined;
		if (defaultFile && fs.existsSync(defaultFile)) {
			parsed = readFile(defaultFile, false);
			sources = [defaultFile];
		} else {
			const fromServiceAccount = inCluster(env, options.serviceAccountRoot ?? '');
			if (!fromServiceAccount) {
				throw new KubeconfigError(noKubeconfigMessage, exitCodes.cluster);
			}

			parsed = fromServiceAccount;
			sources = ['in-cluster'];
		}
	}

	return {parsed, sources};
}

export function loadKubeconfig(options: KubeconfigOptions = {}): LoadedKubeconfig {
	const {parsed, sources} = readKubeconfig(options);
	const where = sources.length === 1 ? `kubeconfig ${sources[0]}` : 'the kubeconfig';
	let contextName: string;
	if (options.context !== undefined && options.context !== '') {
		contextName = options.context;
		if (!parsed.contexts.some(c => c.name === contextName)) {
			const guess = nearMiss(contextName, parsed.contexts.map(c => c.name));
			const hint = guess
				? `did you mean ${sanitizeLine(guess, 80)}?`
				: parsed.contexts.length > 0 ? `contexts: ${listNames(parsed.contexts)}` : 'it has no contexts';
			throw new KubeconfigError(`context ${sanitizeLine(contextName, 80)} not found in ${where} (${hint})`, exitCodes.usage);
		}
	} else if (parsed.currentContext) {
		contextName = parsed.currentContext;
		if (!parsed.contexts.some(c => c.name === contextName)) {
			throw new KubeconfigError(`current-context ${sanitizeLine(contextName, 80)} is not defined in ${where}`, exitCodes.cluster);
		}
	} else {
		const hint = parsed.contexts.length > 0 ? `: pick one with --context (${listNames(parsed.contexts)})` : ' and no contexts';
		throw new KubeconfigError(`${where} has no current-context${hint}`, exitCodes.cluster);
	}

	const context = parsed.contexts.find(c => c.name === contextName)!;
	const cluster = parsed.clusters.find(c => c.name === context.cluster);
	if (!cluster) {
		throw new KubeconfigError(
			`context ${sanitizeLine(contextName, 80)} refers to cluster ${sanitizeLine(context.cluster ?? '', 80)}, ` +
			`which is not in ${where}`,
			exitCodes.cluster,
		);
	}

	checkCertificateAuthority(cluster, where);
	const user = parsed.users.find(u => u.name === context.user);
	if (context.user && !user) {
		throw new KubeconfigError(
			`context ${sanitizeLine(contextName, 80)} refers to user ${sanitizeLine(context.user, 80)}, which is not in ${where}`,
			exitCodes.cluster,
		);
	}

	// kubectl talks to http:// servers; client-node refuses unless skipTLSVerify is set, which means nothing
	// without TLS. Set it so a plain-http kubeconfig works as it does with kubectl.
	const clusters = parsed.clusters.map(c => c.server.startsWith('http:') && !c.skipTLSVerify ? {...c, skipTLSVerify: true} : c);
	const kubeConfig = new KubeConfig();
	const {users, credentials} = withExecRunner(parsed.users, {
		...(options.execTimeoutMs === undefined ? {} : {timeoutMs: options.execTimeoutMs}),
		...(options.stdinIsTerminal === undefined ? {} : {stdinIsTerminal: options.stdinIsTerminal}),
	}, execClusterInfo(cluster, parsed.extras?.get(cluster.name)));
	if (credentials) {
		kubeConfig.addAuthenticator(credentials);
	}

	kubeConfig.loadFromOptions({clusters, users, contexts: parsed.contexts, currentContext: contextName});

	const namespace = options.namespace !== undefined && options.namespace !== '' ? options.namespace : context.namespace || 'default';
	const plugin = execPlugin(user);
	return {
		kubeConfig,
		contextName,
		clusterName: cluster.name,
		server: cluster.server,
		userName: user?.name ?? '',
		namespace,
		...(plugin === undefined ? {} : {credentialPlugin: plugin}),
		sources,
		...(credentials === undefined ? {} : {credentials}),
	};
}
