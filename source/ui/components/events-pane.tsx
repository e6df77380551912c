import {Box, Text} from 'ink';
import {memo} from 'react';
import type {PlanEvent} from '../../model/plan-tree.js';
import {fit, fitParts, fitRight, singleLine, truncate} from '../cell-text.js';
import {displayWidth} from '../../model/display-width.js';
import {msSince} from '../../model/iso-time.js';
import {formatAge} from '../format-time.js';
import {useTheme} from '../theme-context.js';
import {MoreLine} from './more-line.js';
import {TickText} from './tick-text.js';
import {Line} from './line.js';

export type EventsPaneProps = {
	/** `namespace/name` of the object, or undefined when nothing is selected. */
	readonly title?: string;
	/** Oldest first; the newest are shown when they do not all fit. */
	readonly events: readonly PlanEvent[];
	/** Lines to use, title included. */
	readonly height: number;
	readonly width: number;
};

/** Lines the pane would like: a title plus one per event (or one for "no events"). */
export function eventsLinesWanted(events: readonly PlanEvent[]): number {
	return 1 + Math.max(1, events.length);
}

/** EVENTS of one object, newest last, with ages ("58s", "3m"), type, reason and message. Ages follow the clock on their own. */
export const EventsPane = memo(function EventsPane({title, events, height, width}: EventsPaneProps) {
	const theme = useTheme();
	if (height < 2) {
		return null;
	}

	const room = height - 1;
	const clipped = events.length > room;
	const shown = clipped ? events.slice(events.length - (room - 1)) : events;
	const reasonWidth = Math.min(24, Math.max(6, ...shown.map(e => displayWidth(singleLine(e.reason, theme.glyphs.lineBreak)))));
	return (
		<Box flexDirection="column" width={width}>
			<Line bold>
				EVENTS {title ? truncate(singleLine(title, theme.glyphs.lineBreak), width - 7, theme.glyphs.ellipsis) : ''}
			</Line>
			{clipped ? <MoreLine direction="above" count={events.length - shown.length} noun="earlier" /> : undefined}
			{shown.length === 0 ? <Text {...theme.style('muted')}>  no events</Text> : undefined}
			{shown.map(event => {
				const warning = event.type !== 'Normal';
				// The message gives way, cut with the theme's marker (--ascii clipped it unmarked); the count stays.
				const [, message = '', count = ''] = fitParts([
					{text: ' '.repeat(2 + 4 + 2 + 8 + 1 + reasonWidth + 2)},
					{text: singleLine(event.message, theme.glyphs.lineBreak), giveWay: 1},
					{text: event.count > 1 ? ` (${theme.ascii ? 'x' : '×'}${event.count})` : ''},
				], width, theme.glyphs.ellipsis);
				return (
					<Line key={`${event.uid}/${event.time ?? ''}/${event.count}`}>
						{'  '}
						<TickText
							text={now => {
								const age = msSince(event.time, now);
								return fitRight(age === undefined ? '?' : formatAge(age), 4);
							}}
						/>
						{'  '}
						<Text {...theme.style(warning ? 'warning' : 'muted')}>
							{fit(singleLine(event.type, theme.glyphs.lineBreak), 8, theme.glyphs.ellipsis)}
						</Text>{' '}
						{fit(singleLine(event.reason, theme.glyphs.lineBreak), reasonWidth, theme.glyphs.ellipsis)}
						{'  '}
						{message}
						{count ? <Text {...theme.style('muted')}>{count}</Text> : undefined}
					</Line>
				);
			})}
		</Box>
	);
});
