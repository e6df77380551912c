/**
 * `-v=6`: one line per HTTP request, as kubectl's round_trippers.go prints them at that level
 * (`GET https://…/instances?limit=500 200 OK in 12 milliseconds`): what an operator reaches for when the header
 * says `reconnecting`. Logged when the answer's headers arrive (a watch then stays open) or the request fails.
 * Where the lines go (stderr now, or kept until the TUI has left the screen) is the CLI's choice.
 */
import {STATUS_CODES} from 'node:http';
import {sanitizeLine} from '../model/sanitize.js';
import {requestFailureText} from './errors.js';

/** Receives each finished request's line (no newline). */
export type RequestLog = (line: string) => void;

/** The longest URL shown: a label selector can be long, a line should still be one line. */
const maxUrlLength = 2000;

/** Time one request from now; the returned function logs its end (a status, or the error it failed with). */
export function startRequest(
	log: RequestLog | undefined,
	method: string,
	url: string,
): (end: {readonly status: number} | {readonly error: unknown}) => void {
	if (!log) {
		return () => undefined;
	}

	const started = performance.now();
	let logged = false;
	return end => {
		if (logged) {
			return;
		}

		logged = true;
		const ms = Math.round(performance.now() - started);
		log(requestLine(method, url, end, ms));
	};
}

/** `GET URL 200 OK in 12 milliseconds`, or `GET URL failed (ECONNREFUSED 10.0.0.1:6443) in 3 milliseconds`. */
export function requestLine(method: string, url: string, end: {readonly status: number} | {readonly error: unknown}, ms: number): string {
	const shown = sanitizeLine(url, maxUrlLength);
	const outcome = 'status' in end
		? `${end.status} ${STATUS_CODES[end.status] ?? ''}`.trimEnd()
		: `failed (${requestFailureText(end.error)})`;
	return `${method} ${shown} ${outcome} in ${ms} milliseconds`;
}
