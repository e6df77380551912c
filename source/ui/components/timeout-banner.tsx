import {useCallback} from 'react';
import type {WaitSession, WaitView} from '../../state/wait-session.js';
import {displayWidth} from '../../model/display-width.js';
import {fit, singleLine, truncate} from '../cell-text.js';
import {formatDurationWords} from '../../model/format-duration.js';
import type {Role, Theme} from '../theme.js';
import {useTheme} from '../theme-context.js';
import {Line} from './line.js';
import {exitCodes} from '../../core/exit-codes.js';
import {useTickValue} from '../ticks.js';
import {useKeptWaitView} from '../hooks/use-wait.js';

export type BannerInput = {
	readonly wait: WaitView;
	readonly fatal?: {readonly message: string; readonly exitCode: number};
	readonly now: number;
	/** The summary line already on screen (the open object's): the banner does not say it a second time. */
	readonly echo?: string;
};

/**
 * The one line about the wait (or a fatal error), or undefined when there is nothing to say. With `width`, a long
 * result message is cut so its `(exit code N)` stays in view.
 */
export function bannerLine(
	{wait, fatal, now, echo}: BannerInput,
	theme: Theme,
	width?: number,
): {readonly text: string; readonly role: Role} | undefined {
	if (fatal) {
		const line = singleLine(fatal.message, theme.glyphs.lineBreak);
		return {
			text: `${theme.icon('failed')} ` +
				`${width === undefined ? line : truncate(line, width - displayWidth(theme.icon('failed')) - 1, theme.glyphs.ellipsis)}`,
			role: 'error',
		};
	}

	switch (wait.phase) {
		case 'grace': {
			const after = formatDurationWords((wait.deadlineAt ?? now) - wait.startedAt);
			const left = Math.max(0, Math.ceil(((wait.graceEndsAt ?? now) - now) / 1000));
			const dash = theme.ascii ? '-' : '—';
			const more = formatDurationWords(wait.extendMs);
			const text = `${theme.glyphs.timeout} Timeout reached after ${after} ${dash} press + to wait ${more} more, q to quit ` +
				`(exiting with code ${exitCodes.timedOut} in ${left}s)`;
			// The keys and the countdown must stay in view: a narrow terminal gets the same in fewer words.
			const short = `${theme.glyphs.timeout} Timeout after ${after}: + waits ${more} more, q quits (exit ` +
				`${exitCodes.timedOut} in ${left}s)`;
			return {text: width !== undefined && displayWidth(text) > width ? short : text, role: 'warning'};
		}

		case 'done': {
			// Quitting ends the session without a message: nothing to add to the final frame then.
			if (!wait.result?.message) {
				return undefined;
			}

			const {exitCode, message} = wait.result;
			const icon = exitCode === exitCodes.ok
				? theme.icon('succeeded')
				: exitCode === exitCodes.timedOut ? theme.glyphs.timeout : theme.icon('failed');
			const head = `${icon} `;
			const tail = ` (exit code ${exitCode})`;
			// The object's summary is the line above: say only how the wait ended.
			const line = message === echo
				? `wait over: ${exitCode === exitCodes.ok ? 'succeeded' : 'failed'}`
				: singleLine(message, theme.glyphs.lineBreak);
			const room = width === undefined ? undefined : width - displayWidth(head) - displayWidth(tail);
			const shown = room === undefined || displayWidth(line) <= room ? line : fit(line, Math.max(1, room), theme.glyphs.ellipsis);
			return {
				text: `${head}${shown}${tail}`,
				role: exitCode === exitCodes.ok ? 'success' : exitCode === exitCodes.timedOut ? 'warning' : 'error',
			};
		}

		case 'waiting': {
			if (!wait.waitingFor) {
				return undefined;
			}

			const line = wait.waitingFor === echo ? 'waiting for it to finish' : singleLine(wait.waitingFor, theme.glyphs.lineBreak);
			return {
				text: `${theme.icon('pending')} ` +
					`${width === undefined
						? line
						: truncate(line, width - displayWidth(theme.icon('pending')) - 1, theme.glyphs.ellipsis)}`,
				role: 'muted',
			};
		}

		case 'watching': {
			return undefined;
		}
	}
}

/** Whether there is a banner line: that does not depend on the time, only its text does (the grace countdown). */
export function hasBanner(input: Omit<BannerInput, 'now'>, theme: Theme): boolean {
	return bannerLine({...input, now: input.wait.startedAt}, theme) !== undefined;
}

/**
 * Timeout prompt, final result, what we wait for, or a fatal error: one line (`width`: the terminal's), read from the
 * wait session as it changes.
 */
export function TimeoutBanner({session, fatal, echo, width}: Omit<BannerInput, 'now' | 'wait'> & {
	readonly session: WaitSession;
	readonly width?: number;
}) {
	const theme = useTheme();
	// While waiting, the line's text is all that shows, cut to the width: a change past the cut (a running object's
	// summary further along the line) keeps the view already shown, so it costs no render and no frame.
	const sameLine = useCallback((before: WaitView, now: WaitView) => {
		const cut = (wait: WaitView) =>
			(wait.phase === 'waiting' ? bannerLine({wait, fatal, now: wait.startedAt, echo}, theme, width)?.text : undefined);
		const shown = cut(before);
		return shown !== undefined && shown === cut(now);
	}, [fatal, echo, theme, width]);
	const wait = useKeptWaitView(session, sameLine);
	const text = useTickValue(now => bannerLine({wait, fatal, now, echo}, theme, width)?.text);
	const role = bannerLine({wait, fatal, now: wait.startedAt}, theme)?.role;
	return text !== undefined && role !== undefined ? (
		<Line {...theme.style(role)} bold={role === 'warning' || role === 'error'}>
			{text}
		</Line>
	) : null;
}
