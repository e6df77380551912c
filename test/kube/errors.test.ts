import {describe, expect, it} from 'vitest';
import {
	BadResponseError,
	classifyFailure,
	CredentialError,
	describeBody,
	KubeStatusError,
	nearMiss,
	notFoundMessage,
	serverAddress,
	statusText,
	tlsSentence,
	type FailureContext,
} from '../../source/kube/errors.js';
import {resourceTypes} from '../../source/kube/resources.js';

const context: FailureContext = {server: 'https://10.0.0.1:6443', verb: 'list', resource: resourceTypes.ActionSet, namespace: 'default'};

/** What undici's fetch rejects with: `TypeError: fetch failed` around the socket error. */
function fetchFailed(code: string, message = code): Error {
	return new TypeError('fetch failed', {cause: Object.assign(new Error(message), {code})});
}

describe('classifyFailure', () => {
	it('network errors: cannot reach the cluster at host:port', () => {
		expect(classifyFailure(fetchFailed('ECONNREFUSED'), context)).toEqual({kind: 'unreachable', message: 'cannot reach the cluster at 10.0.0.1:6443: connection refused'});
		expect(classifyFailure(fetchFailed('ENOTFOUND'), {...context, server: 'https://k8s.example'}).message).toBe('cannot reach the cluster at k8s.example:443: host not found');
		expect(classifyFailure(fetchFailed('UND_ERR_CONNECT_TIMEOUT'), context).message).toBe('cannot reach the cluster at 10.0.0.1:6443: connection timed out');
	});

	it('finds the code inside an AggregateError (happy eyeballs)', () => {
		const cause = new AggregateError([Object.assign(new Error('x'), {code: 'ECONNREFUSED'})], 'all failed');
		expect(classifyFailure(new TypeError('fetch failed', {cause}), context).kind).toBe('unreachable');
	});

	it('TLS errors: TLS error talking to host:port: reason', () => {
		expect(classifyFailure(fetchFailed('DEPTH_ZERO_SELF_SIGNED_CERT'), context).message)
			.toBe('TLS error talking to 10.0.0.1:6443: self-signed certificate (set certificate-authority in the kubeconfig)');
		expect(classifyFailure(fetchFailed('ERR_SSL_SOMETHING_NEW', 'routines:odd\nsecond line'), context))
			.toEqual({kind: 'tls', message: 'TLS error talking to 10.0.0.1:6443: the TLS handshake failed (something new)'});
	});

	it('401, 403 and 404 from a LIST with a Status body', () => {
		expect(classifyFailure(new KubeStatusError(401, {message: 'Unauthorized'}, 'Unauthorized'), context))
			.toEqual({kind: 'unauthorized', statusCode: 401, message: 'credentials rejected (401): log in again, e.g. refresh your token'});
		const forbidden = new KubeStatusError(
			403,
			{message: 'actionsets.cr.kanister.io is forbidden: User "jane" cannot list resource "actionsets" in API group "cr.kanister.io" in the namespace "default"'},
			'Forbidden',
		);
		expect(classifyFailure(forbidden, context).message).toBe('forbidden: user jane cannot list actionsets.cr.kanister.io in namespace default; planwatch needs get/list/watch on instances, ' +
			'operatorversions (kudo.dev), actionsets, blueprints (cr.kanister.io) and events');
		// Pods (and what KUDO applied) only explain a stuck node: the hint says they are optional, not the required list.
		const pods = new KubeStatusError(403, {message: 'pods is forbidden: User "jane" cannot list resource "pods" in API group ""'}, 'Forbidden');
		expect(classifyFailure(pods, {...context, resource: resourceTypes.Pod}).message).toBe('forbidden: user jane cannot list pods in namespace default; '
			+ 'pods, deployments, statefulsets, jobs (get/list/watch) and pods/log (get) are optional: without them planwatch shows no pods or logs, the rest works');
		expect(classifyFailure(new KubeStatusError(404, undefined, 'Not Found'), {...context, resource: resourceTypes.Instance}))
			.toEqual({kind: 'not-found', statusCode: 404, message: 'KUDO is not installed in this cluster: no instances.kudo.dev'});
		expect(classifyFailure(new KubeStatusError(404, undefined, 'Not Found'), context).message).toBe('Kanister is not installed in this cluster: no actionsets.cr.kanister.io');
	});

	it('403 without a user name, on a watch, across all namespaces', () => {
		const watchError = Object.assign(new Error('Forbidden'), {statusCode: 403});
		expect(classifyFailure(watchError, {server: 'https://h:1', verb: 'watch', resource: resourceTypes.Event}).message)
			.toMatch(/^forbidden: you cannot watch events in all namespaces; planwatch needs/);
	});

	it('410 is "expired", 5xx is a retryable server error, 400 is a bad request', () => {
		expect(classifyFailure(Object.assign(new Error('Gone'), {statusCode: 410}), context).kind).toBe('expired');
		expect(classifyFailure(new KubeStatusError(503, {message: 'etcd leader changed'}, 'Service Unavailable'), context))
			.toEqual({kind: 'server', statusCode: 503, message: 'the cluster answered 503 Service Unavailable: etcd leader changed'});
		expect(classifyFailure(new KubeStatusError(400, {message: 'unable to parse requirement: =x'}, 'Bad Request'), context))
			.toEqual({kind: 'bad-request', statusCode: 400, message: 'the cluster rejected the request (400): unable to parse requirement: =x'});
	});

	it('credential plugin failures name the plugin', () => {
		expect(classifyFailure(new CredentialError('kubelogin', new Error('error: device code expired\nmore detail')), context))
			.toEqual({kind: 'credentials', message: 'credential plugin kubelogin failed: error: device code expired'});
		expect(classifyFailure(new CredentialError('aws', Object.assign(new Error('spawn aws ENOENT'), {code: 'ENOENT'})), context).message)
			.toBe('credential plugin aws not found: install it or fix users[].exec.command in the kubeconfig');
	});

	it('server text cannot smuggle escape sequences into the message', () => {
		const hostile = new KubeStatusError(500, {message: 'boom\u001B]0;owned\u0007 \u001B[31mred'}, 'x');
		expect(classifyFailure(hostile, context).message).toBe('the cluster answered 500 Internal Server Error: boom red');
	});

	it('unknown errors still give one line', () => {
		expect(classifyFailure(new Error('weird\nstack'), context)).toEqual({kind: 'unknown', message: 'list actionsets.cr.kanister.io failed: weird'});
	});
});

describe('near misses and not-found messages', () => {
	it('prefers a generated name that starts with what was typed', () => {
		expect(nearMiss('foo', ['bar', 'foo-x7k2q', 'foo-abcdefgh'])).toBe('foo-x7k2q');
	});

	it('falls back to a small edit distance, or nothing', () => {
		expect(nearMiss('mysql-instnace', ['mysql-instance', 'kafka'])).toBe('mysql-instance');
		expect(nearMiss('zookeeper', ['kafka', 'mysql'])).toBeUndefined();
		expect(nearMiss('x', [])).toBeUndefined();
	});

	it('formats the not-found line', () => {
		expect(notFoundMessage({kind: 'ActionSet', name: 'foo'}, 'default', {nearMiss: 'foo-x7k2q'})).toBe('actionset default/foo not found (did you mean foo-x7k2q?)');
		expect(notFoundMessage({kind: 'Instance', name: 'db'}, 'default', {otherNamespace: 'prod'})).toBe('instance default/db not found (it exists in namespace prod: use -n prod)');
		expect(notFoundMessage({kind: 'Instance', name: 'db'}, undefined)).toBe('instance db not found in any namespace');
	});

	it('spells out the default port', () => {
		expect(serverAddress('https://example.com')).toBe('example.com:443');
		expect(serverAddress('http://127.0.0.1:8080/')).toBe('127.0.0.1:8080');
		expect(serverAddress('https://[::1]:6443')).toBe('[::1]:6443');
	});
});

describe('answers that are not what they claim', () => {
	it.each([
		['', '', 'an empty body'],
		['<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>', 'text/html', 'an HTML page ("502 Bad Gateway")'],
		['<p>maintenance</p>', '', 'an HTML page'],
		['[]', 'application/json', 'a JSON array'],
		['{"kind":"InstanceList","items":[{"a":', 'application/json', 'a truncated or invalid JSON document'],
		['not json at all', 'text/plain', 'text that is not JSON'],
		['{"kind":"Pod"}', 'application/json', 'a Pod object'],
		['{"hello":1}', 'application/json', 'a JSON object'],
		['42', 'application/json', 'a JSON number'],
		['<title>\u001B[31mred</title>', 'text/html', 'an HTML page ("red")'],
	])('%j (%s) is %s', (body, contentType, what) => {
		expect(describeBody(body, contentType)).toBe(what);
	});

	it('a status without a Status body is named with its reason phrase and what came with it', () => {
		expect(classifyFailure(new KubeStatusError(503, undefined, 'x', '<html><title>Service down</title></html>'), context))
			.toEqual({kind: 'server', statusCode: 503, message: 'the cluster answered 503 Service Unavailable with an HTML page ("Service down")'});
		expect(classifyFailure(new KubeStatusError(429, undefined, 'x', ''), context).message).toBe('the cluster answered 429 Too Many Requests with an empty body');
		expect(statusText(599)).toBe('599');
	});

	it('a 200 that is not a list is retried and says so, not "502"', () => {
		expect(classifyFailure(new BadResponseError(200, 'a JSON array, not a list of instances'), context))
			.toEqual({kind: 'server', statusCode: 200, message: 'the cluster answered 200 OK with a JSON array, not a list of instances'});
	});
});

describe('TLS failures in words', () => {
	const openssl = (reason: string) => `C0D7F5E2D97F0000:error:0A000412:SSL routines:ssl3_read_bytes:${reason}:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1605:SSL alert number 42`;
	it.each([
		['ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE', openssl('sslv3 alert bad certificate'), 'the server rejected the client certificate (check client-certificate in the kubeconfig)'],
		[
			'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
			openssl('tlsv13 alert certificate required'),
			'the server requires a client certificate (set client-certificate and client-key in the kubeconfig)',
		],
		['ERR_SSL_TLSV1_ALERT_UNKNOWN_CA', openssl('tlsv1 alert unknown ca'), 'the server does not trust the issuer of the client certificate'],
		[
			'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
			openssl('sslv3 alert handshake failure'),
			'the server ended the TLS handshake (does it want a client certificate? set client-certificate and client-key in the kubeconfig; else no cipher is in common)',
		],
		['ERR_SSL_TLSV1_ALERT_SOMETHING_NEW', openssl('tlsv1 alert something new'), 'the server ended the TLS handshake (alert: something new)'],
		['EPROTO', openssl('wrong version number'), 'the server did not answer with TLS (is it plain http?)'],
		['ERR_SSL_UNSUPPORTED_PROTOCOL', openssl('unsupported protocol'), 'the server offers only TLS versions planwatch refuses (older than TLS 1.2)'],
		['ERR_SSL_WEIRD_THING', 'C0D7F5E2D97F0000:error:0A0000FF:SSL routines:tls_process_x:weird thing:../deps/openssl/openssl/ssl/x.c:12:', 'the TLS handshake failed (weird thing)'],
	])('%s', (code, message, sentence) => {
		const text = tlsSentence(code, message);
		expect(text).toBe(sentence);
		expect(text).not.toMatch(/deps\/openssl|0A0000|routines/);
	});

	it('classifyFailure uses the sentence for codes it has no fixed text for', () => {
		const error = Object.assign(new Error(openssl('sslv3 alert bad certificate')), {code: 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE'});
		expect(classifyFailure(error, context)).toEqual({
			kind: 'tls',
			message: 'TLS error talking to 10.0.0.1:6443: the server rejected the client certificate (check client-certificate in the kubeconfig)',
		});
	});
});
