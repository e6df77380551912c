import type {WaitView} from '../../state/wait-session.js';
import {displayWidth} from '../../model/display-width.js';
import {fit, singleLine} from '../cell-text.js';
import {formatDurationWords} from '../../model/format-duration.js';
import type {Role, Theme} from '../theme.js';
import {useTheme} from '../theme-context.js';
import {Line} from './line.js';
import {exitCodes} from '../../core/exit-codes.js';
import {useTickValue} from '../ticks.js';

export type BannerInput = {
	readonly wait: WaitView;
	readonly fatal?: {readonly message: string; readonly exitCode: number};
	readonly now: number;
};

/**
 * The one line about the wait (or a fatal error), or undefined when there is nothing to say. With `width`, a long
 * result message is cut so its `(exit code N)` stays in view.
 */
export function bannerLine(
	{wait, fatal, now}: BannerInput,
	theme: Theme,
	width?: number,
): {readonly text: string; readonly role: Role} | undefined {
	if (fatal) {
		return {text: `${theme.icon('failed')} ${singleLine(fatal.message, theme.glyphs.lineBreak)}`, role: 'error'};
	}

	switch (wait.phase) {
		case 'grace': {
			const after = formatDurationWords((wait.deadlineAt ?? now) - wait.startedAt);
			const left = Math.max(0, Math.ceil(((wait.graceEndsAt ?? now) - now) / 1000));
			const dash = theme.ascii ? '-' : '—';
			return {
				text: `${theme.glyphs.timeout} Timeout reached after ${after} ${dash} press + to wait ` +
					`${formatDurationWords(wait.extendMs)} more, q to quit (exiting with code ${exitCodes.timedOut} in ${left}s)`,
				role: 'warning',
			};
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
			const line = singleLine(message, theme.glyphs.lineBreak);
			const room = width === undefined ? undefined : width - displayWidth(head) - displayWidth(tail);
			const shown = room === undefined || displayWidth(line) <= room ? line : fit(line, Math.max(1, room), theme.glyphs.ellipsis);
			return {
				text: `${head}${shown}${tail}`,
				role: exitCode === exitCodes.ok ? 'success' : exitCode === exitCodes.timedOut ? 'warning' : 'error',
			};
		}

		case 'waiting': {
			return wait.waitingFor
				? {text: `${theme.icon('pending')} ${singleLine(wait.waitingFor, theme.glyphs.lineBreak)}`, role: 'muted'}
				: undefined;
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

/** Timeout prompt, final result, what we wait for, or a fatal error: one line (`width`: the terminal's). */
export function TimeoutBanner({wait, fatal, width}: Omit<BannerInput, 'now'> & {readonly width?: number}) {
	const theme = useTheme();
	const text = useTickValue(now => bannerLine({wait, fatal, now}, theme, width)?.text);
	const role = bannerLine({wait, fatal, now: wait.startedAt}, theme)?.role;
	return text !== undefined && role !== undefined ? (
		<Line {...theme.style(role)} bold={role === 'warning' || role === 'error'}>
			{text}
		</Line>
	) : null;
}
