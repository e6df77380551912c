/**
 * Turns any failure talking to the cluster into one clear line (never a stack trace) and a kind the
 * reflector uses to decide between "give up" and "retry". Messages say what to do where we can tell.
 */
import {STATUS_CODES} from 'node:http';
import {isWorkloadKind} from '../core/kube-object.js';
import {sanitizeLine} from '../model/sanitize.js';
import {editDistance} from '../model/suggest.js';
import {TooLargeError} from './bounded-read.js';
import {qualifiedName, type ResourceType} from './resources.js';

export type FailureKind =
	| 'unreachable' // TCP/DNS: nothing answered
	| 'tls' // the TLS handshake failed
	| 'credentials' // getting credentials failed (exec plugin, token file)
	| 'unauthorized' // 401
	| 'forbidden' // 403
	| 'not-found' // 404 on a collection: the resource type is not served (CRD missing)
	| 'expired' // 410: resourceVersion too old, relist
	| 'bad-request' // 400/422: the request itself is wrong (e.g. a bad selector)
	| 'server' // 5xx, 429, other statuses, broken streams: worth retrying
	| 'unknown';

export type KubeFailure = {
	readonly kind: FailureKind;
	/** One line for the user. */
	readonly message: string;
	readonly statusCode?: number;
};

/** What was being attempted, to phrase the message. */
export type FailureContext = {
	/** Cluster server URL from the kubeconfig. */
	readonly server: string;
	readonly verb: 'list' | 'watch';
	readonly resource: ResourceType;
	/** undefined = all namespaces. */
	readonly namespace?: string;
	/** Name of the exec credential plugin, if the user has one. */
	readonly credentialPlugin?: string;
	/** The kubeconfig names a CA for this cluster (certificate-authority or -data): hints must not say "set it". */
	readonly caConfigured?: boolean;
	/** The cluster's proxy-url: a connection that fails is the proxy's, not the cluster's. */
	readonly proxyUrl?: string;
};

/** A Kubernetes `Status` body, as sent with non-2xx answers and in watch ERROR events. */
export type KubeStatus = {
	readonly kind?: string;
	readonly status?: string;
	readonly message?: string;
	readonly reason?: string;
	readonly code?: number;
	readonly details?: unknown;
};

/** A non-2xx answer to a request planwatch made itself (the LIST), with its Status body when there was one. */
export class KubeStatusError extends Error {
	readonly statusCode: number;
	readonly status: KubeStatus | undefined;
	/** The raw body when it was not a Status (to describe it, never to print it). */
	readonly body: string | undefined;

	constructor(statusCode: number, status: KubeStatus | undefined, statusText: string, body?: string) {
		super(status?.message ?? statusText);
		this.name = 'KubeStatusError';
		this.statusCode = statusCode;
		this.status = status;
		this.body = status ? undefined : body;
	}
}

/**
 * An answer that is not what its status claims (a 200 with an HTML page, `[]`, invalid or cut-off JSON): the
 * proxy or server in front of the apiserver is misbehaving. Retried like a 5xx.
 */
export class BadResponseError extends Error {
	readonly statusCode: number;

	constructor(statusCode: number, what: string) {
		super(`the cluster answered ${statusText(statusCode)} with ${what}`);
		this.name = 'BadResponseError';
		this.statusCode = statusCode;
	}
}

/** `503 Service Unavailable`; just the number for codes HTTP does not name. */
export function statusText(statusCode: number): string {
	const phrase = STATUS_CODES[statusCode];
	return phrase ? `${statusCode} ${phrase}` : String(statusCode);
}

/**
 * What a body that is not the expected JSON is, in a few words: `an HTML page ("502 Bad Gateway")`, `a JSON
 * array`, `invalid JSON`, `an empty body`. Never the body itself beyond a short sanitized title.
 */
export function describeBody(text: string, contentType = ''): string {
	const trimmed = text.trim();
	if (trimmed === '') {
		return 'an empty body';
	}

	if (/html/i.test(contentType) || /^<(!doctype|html|head|body|\?xml)/i.test(trimmed) || trimmed.startsWith('<')) {
		const title = /<title[^>]*>([^<]*)</i.exec(trimmed)?.[1]?.trim();
		return title ? `an HTML page ("${sanitizeLine(title, 80)}")` : 'an HTML page';
	}

	let parsed: unknown;
	try {
		parsed = JSON.parse(trimmed);
	} catch {
		return trimmed.startsWith('{') || trimmed.startsWith('[') ? 'a truncated or invalid JSON document' : 'text that is not JSON';
	}

	if (Array.isArray(parsed)) {
		return 'a JSON array';
	}

	if (typeof parsed === 'object' && parsed !== null) {
		const kind = (parsed as {kind?: unknown}).kind;
		return typeof kind === 'string' && kind !== '' ? `a ${sanitizeLine(kind, 60)} object` : 'a JSON object';
	}

	return `a JSON ${parsed === null ? 'null' : typeof parsed}`;
}

/** Getting credentials failed before any request was sent. */
export class CredentialError extends Error {
	readonly plugin: string | undefined;

	constructor(plugin: string | undefined, cause: unknown) {
		super(errorText(cause), {cause});
		this.name = 'CredentialError';
		this.plugin = plugin;
	}
}

const rbacHint = 'planwatch needs get/list/watch on instances, operatorversions (kudo.dev), actionsets, blueprints ' +
	'(cr.kanister.io) and events';

/** Pods and what KUDO applied only explain a stuck node (docs/stuck.md): asking for them is optional. */
const optionalRbacHint = 'pods, deployments, statefulsets, jobs (get/list/watch) and pods/log (get) are optional: without ' +
	'them planwatch shows no pods or logs, the rest works';

const networkReasons: Readonly<Record<string, string>> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host name lookup failed (temporary)',
	ETIMEDOUT: 'connection timed out',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
	EHOSTDOWN: 'host is down',
	EPIPE: 'connection closed',
	UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

const tlsReasons: Readonly<Record<string, string>> = {
	DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate (set certificate-authority in the kubeconfig)',
	SELF_SIGNED_CERT_IN_CHAIN: 'certificate signed by unknown authority (set certificate-authority in the kubeconfig)',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate signed by unknown authority (set certificate-authority in the kubeconfig)',
	UNABLE_TO_GET_ISSUER_CERT: 'certificate signed by unknown authority (set certificate-authority in the kubeconfig)',
	UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'certificate signed by unknown authority (set certificate-authority in the kubeconfig)',
	CERT_HAS_EXPIRED: 'the server certificate has expired',
	CERT_NOT_YET_VALID: 'the server certificate is not yet valid',
	ERR_TLS_CERT_ALTNAME_INVALID: 'the server certificate does not match the host name',
	ERR_SSL_WRONG_VERSION_NUMBER: 'the server did not answer with TLS (is it plain http?)',
	EPROTO: 'protocol error (is the server plain http?)',
};

/** The same failures when the kubeconfig does name a CA: it is set, it just does not vouch for this server. */
const tlsReasonsWithCa: Readonly<Record<string, string>> = {
	DEPTH_ZERO_SELF_SIGNED_CERT: 'the server\'s certificate is self-signed and is not the certificate-authority in the kubeconfig (is ' +
		'that the CA of this cluster?)',
	SELF_SIGNED_CERT_IN_CHAIN: 'the server\'s certificate chain ends in a CA other than the certificate-authority in the kubeconfig (is ' +
		'that the CA of this cluster?)',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the server\'s certificate is not signed by the certificate-authority in the kubeconfig (is that ' +
		'the CA of this cluster?)',
	UNABLE_TO_GET_ISSUER_CERT: 'the server\'s certificate is not signed by the certificate-authority in the kubeconfig (is that the ' +
		'CA of this cluster?)',
	UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the server\'s certificate is not signed by the certificate-authority in the kubeconfig (is that ' +
		'the CA of this cluster?)',
};

/** TLS alerts a server sends, in words (the name is what OpenSSL calls it: `sslv3 alert <name>`). */
const tlsAlerts: Readonly<Record<string, string>> = {
	'bad certificate': 'the server rejected the client certificate (check client-certificate in the kubeconfig)',
	'certificate required': 'the server requires a client certificate (set client-certificate and client-key in the kubeconfig)',
	'unknown ca': 'the server does not trust the issuer of the client certificate',
	'certificate expired': 'the server says the client certificate has expired',
	'certificate revoked': 'the server says the client certificate was revoked',
	'certificate unknown': 'the server could not use the client certificate',
	'unsupported certificate': 'the server does not support the client certificate',
	'handshake failure': 'the server ended the TLS handshake (does it want a client certificate? set client-certificate and client-key ' +
		'in the kubeconfig; else no cipher is in common)',
	'protocol version': 'the server and planwatch have no TLS version in common',
	'insufficient security': 'the server wants stronger ciphers than planwatch offers',
	'internal error': 'the server reported an internal TLS error',
	'unrecognized name': 'the server does not know the host name it was asked for (SNI)',
	'access denied': 'the server refused the TLS connection (access denied)',
	'decrypt error': 'the TLS handshake failed (decrypt error: a key does not match its certificate?)',
};

/** OpenSSL's own phrases for failures that are not alerts, in words. */
const tlsFailures: ReadonlyArray<readonly [RegExp, string]> = [
	[/wrong version number|packet length too long|http request/i, 'the server did not answer with TLS (is it plain http?)'],
	[/unsupported protocol/i, 'the server offers only TLS versions planwatch refuses (older than TLS 1.2)'],
	[/unsafe legacy renegotiation/i, 'the server needs unsafe legacy TLS renegotiation, which planwatch refuses'],
	[/(ee|ca) key too small|md too weak/i, 'the server certificate uses a key or signature too weak to trust'],
	[/no start line|bad base64|no certificate|pem/i, 'a certificate or key in the kubeconfig is not valid PEM'],
	[/key values mismatch/i, 'client-key does not match client-certificate in the kubeconfig'],
];

/**
 * A TLS failure as a sentence a person understands, from Node's error code (`ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE`)
 * or OpenSSL's message (`C0D7…:error:0A000412:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate:../deps/…`).
 * Never OpenSSL's internals (hex codes, function names, source paths).
 */
export function tlsSentence(code: string, message: string): string {
	const alertFromCode = /^ERR_SSL_(?:SSLV3|TLSV1|TLSV13)_ALERT_(.+)$/.exec(code)?.[1]?.toLowerCase().replaceAll('_', ' ');
	const reasonFromMessage = /error:[\dA-F]+:[^:]*:[^:]*:([^:]+)/i.exec(message)?.[1]?.trim();
	const reason = alertFromCode
		? `alert ${alertFromCode}`
		: reasonFromMessage ?? (code.startsWith('ERR_SSL_') ? code.slice('ERR_SSL_'.length).toLowerCase().replaceAll('_', ' ') : '');
	const alert = /alert (.+)$/i.exec(reason)?.[1]?.toLowerCase();
	if (alert !== undefined) {
		return tlsAlerts[alert] ?? `the server ended the TLS handshake (alert: ${sanitizeLine(alert, 60)})`;
	}

	for (const [pattern, sentence] of tlsFailures) {
		if (pattern.test(reason) || pattern.test(message)) {
			return sentence;
		}
	}

	// Unknown: keep OpenSSL's reason words only, never its hex codes and source paths.
	const words = reason ||
		message.replace(/[\dA-F]{8,}:error:[\dA-F]+:/gi, '').replace(/(\.\.\/)?deps\/\S+/g, '').replaceAll(/:+/g, ' ').trim();
	return words ? `the TLS handshake failed (${sanitizeLine(words, 120)})` : 'the TLS handshake failed';
}

/** `host:port` of a server URL, with the default port spelled out. */
export function serverAddress(server: string): string {
	try {
		const url = new URL(server);
		const port = url.port || (url.protocol === 'http:' ? '80' : '443');
		return `${url.hostname}:${port}`;
	} catch {
		return sanitizeLine(server, 200);
	}
}

/** First non-empty line of an error's message, cleaned for the terminal. */
export function errorText(error: unknown): string {
	const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error) ?? String(error);
	const line = raw.split(/\r?\n/).map(l => l.trim()).find(l => l.length > 0) ?? '';
	return sanitizeLine(line, 300);
}

/** The first `code` found on an error, its causes or an AggregateError's members (undici nests them). */
function systemCode(error: unknown, depth = 0): string | undefined {
	if (depth > 5 || typeof error !== 'object' || error === null) {
		return undefined;
	}

	const record = error as {code?: unknown; cause?: unknown; errors?: unknown};
	if (typeof record.code === 'string') {
		return record.code;
	}

	const fromCause = systemCode(record.cause, depth + 1);
	if (fromCause) {
		return fromCause;
	}

	if (Array.isArray(record.errors)) {
		for (const member of record.errors) {
			const code = systemCode(member, depth + 1);
			if (code) {
				return code;
			}
		}
	}

	return undefined;
}

/** `host:port` a failed connect was to (a system error's address and port), anywhere in the cause chain. */
function failedAddress(error: unknown, depth = 0): string | undefined {
	if (depth > 5 || typeof error !== 'object' || error === null) {
		return undefined;
	}

	const {address, port, cause, errors} = error as {address?: unknown; port?: unknown; cause?: unknown; errors?: unknown};
	if (typeof address === 'string' && typeof port === 'number') {
		return `${address.includes(':') ? `[${address}]` : address}:${port}`;
	}

	for (const next of [cause, ...(Array.isArray(errors) ? errors as unknown[] : [])]) {
		const found = failedAddress(next, depth + 1);
		if (found !== undefined) {
			return found;
		}
	}

	return undefined;
}

/** Why a request got no answer, for `-v=6`: the system code and address (`ECONNREFUSED 10.0.0.1:6443`), else the innermost message. */
export function requestFailureText(error: unknown): string {
	const code = systemCode(error);
	const address = failedAddress(error);
	return code === undefined ? innermostMessage(error) : sanitizeLine(address === undefined ? code : `${code} ${address}`, 200);
}

function innermostMessage(error: unknown): string {
	let current: unknown = error;
	for (let i = 0; i < 5; i++) {
		const cause = (current as {cause?: unknown} | undefined)?.cause;
		if (cause === undefined || cause === null) {
			break;
		}

		current = cause;
	}

	return errorText(current);
}

function isTlsCode(code: string): boolean {
	return code in tlsReasons ||
		code.startsWith('ERR_SSL_') ||
		code.startsWith('ERR_TLS_') ||
		code.startsWith('ERR_OSSL_') ||
		code.includes('CERT');
}

function scopeText(namespace: string | undefined): string {
	return namespace === undefined ? 'in all namespaces' : `in namespace ${namespace}`;
}

/** 403: who cannot do what, and the permissions planwatch needs. */
export function forbiddenMessage(context: FailureContext, serverMessage?: string): string {
	const user = /User "([^"]*)"/.exec(serverMessage ?? '')?.[1];
	const who = user ? `user ${sanitizeLine(user, 120)}` : 'you';
	const hint = isWorkloadKind(context.resource.kind) ? optionalRbacHint : rbacHint;
	return `forbidden: ${who} cannot ${context.verb} ${qualifiedName(context.resource)} ${scopeText(context.namespace)}; ${hint}`;
}

/** 404 on a collection: the CRD is not installed. */
export function notInstalledMessage(resource: ResourceType): string {
	if (resource.product) {
		return `${resource.product} is not installed in this cluster: no ${qualifiedName(resource)}`;
	}

	return `the cluster does not serve ${qualifiedName(resource)} (404)`;
}

export const unauthorizedMessage = 'credentials rejected (401): log in again, e.g. refresh your token';

/** A 401 after a good list that a retry (with a fresh credential from the plugin, if there is one) did not cure. */
export function unauthorizedAgainMessage(plugin: string | undefined, refreshed: boolean): string {
	if (plugin !== undefined && refreshed) {
		return 'credentials rejected (401) while watching, and again with a fresh credential from ' +
			`${sanitizeLine(plugin, 80)}: log in again`;
	}

	return 'credentials rejected (401) while watching, and again on retry: log in again, e.g. refresh your token';
}

function statusFailure(
	statusCode: number,
	status: KubeStatus | undefined,
	reason: string,
	context: FailureContext,
	body?: string,
): KubeFailure {
	const serverMessage = status?.message ? sanitizeLine(status.message, 300) : undefined;
	switch (statusCode) {
		case 401: {
			return {kind: 'unauthorized', statusCode, message: unauthorizedMessage};
		}

		case 403: {
			return {kind: 'forbidden', statusCode, message: forbiddenMessage(context, status?.message)};
		}

		case 404: {
			return {kind: 'not-found', statusCode, message: notInstalledMessage(context.resource)};
		}

		case 410: {
			return {kind: 'expired', statusCode, message: `resource version expired (410): ${serverMessage ?? 'relisting'}`};
		}

		case 400:
		case 422: {
			return {
				kind: 'bad-request',
				statusCode,
				message: `the cluster rejected the request (${statusCode}): ${serverMessage ?? sanitizeLine(reason, 120)}`,
			};
		}

		default: {
			// A Status says why in its message; anything else (an HTML error page from a proxy) is described.
			const why = serverMessage ? `: ${serverMessage}` : body === undefined ? '' : ` with ${describeBody(body)}`;
			return {kind: 'server', statusCode, message: `the cluster answered ${statusText(statusCode)}${why}`};
		}
	}
}

function installHintOf(error: unknown): string | undefined {
	const hint = (error as {installHint?: unknown} | undefined)?.installHint;
	return typeof hint === 'string' && hint.trim() !== '' ? hint : undefined;
}

/** Classify any error from a LIST, a watch request or a watch stream. */
export function classifyFailure(error: unknown, context: FailureContext): KubeFailure {
	if (error instanceof CredentialError) {
		const plugin = error.plugin ?? context.credentialPlugin;
		const code = systemCode(error.cause);
		if (plugin && code === 'ENOENT') {
			// The kubeconfig's installHint says how (kubectl prints it too); it is hostile text like any other.
			const hint = installHintOf(error.cause);
			const how = hint === undefined
				? 'install it or fix users[].exec.command in the kubeconfig'
				: sanitizeLine(hint.replaceAll(/\s+/g, ' ').trim(), 300);
			return {kind: 'credentials', message: `credential plugin ${plugin} not found: ${how}`};
		}

		const what = plugin ? `credential plugin ${plugin} failed` : 'cannot get credentials';
		return {kind: 'credentials', message: `${what}: ${error.message || 'no output'}`};
	}

	if (error instanceof KubeStatusError) {
		return statusFailure(error.statusCode, error.status, error.message, context, error.body);
	}

	if (error instanceof BadResponseError) {
		return {kind: 'server', statusCode: error.statusCode, message: error.message};
	}

	if (error instanceof TooLargeError) {
		// The connection is dropped and the request retried with backoff, like a broken answer.
		return {kind: 'server', message: error.message};
	}

	// client-node's Watch: `new Error(statusText)` with `statusCode` for non-200 answers (the body is not read).
	const statusCode = (error as {statusCode?: unknown} | undefined)?.statusCode;
	if (typeof statusCode === 'number') {
		return statusFailure(statusCode, undefined, errorText(error), context);
	}

	const code = systemCode(error);
	const address = serverAddress(context.server);
	const proxy = context.proxyUrl ? serverAddress(context.proxyUrl) : undefined;
	if (proxy !== undefined && /proxy response \((\d+)\)/i.test(innermostMessage(error))) {
		// The proxy answered the CONNECT, but not with 200: it could not (or would not) reach the cluster.
		const proxyStatus = /proxy response \((\d+)\)/i.exec(innermostMessage(error))![1]!;
		return {
			kind: 'unreachable',
			message: `the proxy at ${proxy} (proxy-url in the kubeconfig) did not connect to the cluster at ${address}: it answered ` +
				`${statusText(Number(proxyStatus))}`,
		};
	}

	if (code && code in networkReasons) {
		const failed = failedAddress(error);
		if (proxy !== undefined && (failed === undefined || failed === proxy)) {
			// With a proxy every connection planwatch opens is to the proxy.
			return {
				kind: 'unreachable',
				message: `cannot reach the proxy at ${proxy} (proxy-url in the kubeconfig): ${networkReasons[code]}`,
			};
		}

		return {kind: 'unreachable', message: `cannot reach the cluster at ${address}: ${networkReasons[code]}`};
	}

	if (code && isTlsCode(code)) {
		const reason = (context.caConfigured ? tlsReasonsWithCa[code] : undefined) ??
			tlsReasons[code] ??
			tlsSentence(code, innermostMessage(error));
		return {kind: 'tls', message: `TLS error talking to ${address}: ${reason}`};
	}

	if (code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
		// The connection was up and then dropped (a cut stream): retry, do not call the cluster unreachable.
		return {kind: 'server', message: `the connection to ${address} was lost: ${innermostMessage(error)}`};
	}

	if (code?.startsWith('UND_ERR_')) {
		return {kind: 'server', message: `connection to ${address} failed: ${innermostMessage(error)}`};
	}

	if (code?.startsWith('E')) {
		return {kind: 'unreachable', message: `cannot reach the cluster at ${address}: ${innermostMessage(error)}`};
	}

	return {kind: 'unknown', message: `${context.verb} ${qualifiedName(context.resource)} failed: ${innermostMessage(error)}`};
}

/** The closest candidate to a name that was not found: a generated-name match first, then small edit distance. */
export function nearMiss(name: string, candidates: readonly string[]): string | undefined {
	const unique = [...new Set(candidates)].filter(c => c !== name).sort();
	// `foo` vs `foo-x7k2q`: the user typed the generateName prefix.
	const prefixed = unique.filter(c => c.startsWith(name)).sort((a, b) => a.length - b.length || a.localeCompare(b));
	if (prefixed.length > 0 && name.length >= 3) {
		return prefixed[0];
	}

	let best: string | undefined;
	let bestDistance = Number.POSITIVE_INFINITY;
	for (const candidate of unique) {
		const d = editDistance(name, candidate);
		if (d < bestDistance) {
			best = candidate;
			bestDistance = d;
		}
	}

	const allowed = Math.max(2, Math.floor(name.length / 3));
	return bestDistance <= allowed ? best : undefined;
}

/** `actionset default/foo not found (did you mean foo-x7k2q?)`. */
export function notFoundMessage(
	target: {kind: string; name: string},
	namespace: string | undefined,
	hint: {nearMiss?: string; otherNamespace?: string} = {},
): string {
	const where = namespace === undefined ? `${target.name} not found in any namespace` : `${namespace}/${target.name} not found`;
	let suffix = '';
	if (hint.otherNamespace !== undefined) {
		const other = sanitizeLine(hint.otherNamespace, 120);
		suffix = ` (it exists in namespace ${other}: use -n ${other})`;
	} else if (hint.nearMiss !== undefined) {
		suffix = ` (did you mean ${sanitizeLine(hint.nearMiss, 120)}?)`;
	}

	return sanitizeLine(`${target.kind.toLowerCase()} ${where}${suffix}`, 400);
}
