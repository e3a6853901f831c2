// schedule_gap: CalendarAPI → Calculator, minutes between two clock times.
import type { Family } from '../family';
import { clockToMinutes, formatNumber } from '../format';
import { calendarOutput } from '../outputs';

export const scheduleGap: Family = {
  name: 'schedule_gap',
  chainText: 'CalendarAPI → Calculator',
  computation: 'minutes between two clock times',
  chainTools: ['CalendarAPI', 'Calculator'],
  instantiate(scene, rng) {
    const { events } = scene.calendar;
    const date = spokenDate(scene.calendar.date);
    const i = rng.int(0, events.length - 2);
    const j = rng.int(i + 1, events.length - 1);
    const [a, b] = [events[i]!, events[j]!];
    const request = rng.pick([
      `On ${date}, how many minutes are there between the end of "${a.title}" and the start of "${b.title}"?`,
      `How long is the break, in minutes, from the end of "${a.title}" to the start of "${b.title}" on ${date}?`,
    ]);
    const goldValue = clockToMinutes(b.start) - clockToMinutes(a.end);
    return {
      request,
      goldValue,
      chain: [
        { tool: 'CalendarAPI', needs: [], produces: 'events', output: calendarOutput(scene) },
        { tool: 'Calculator', needs: ['events'], output: formatNumber(goldValue) },
      ],
    };
  },
};

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2024-04-22" → "April 22", as people write dates in requests. */
export function spokenDate(iso: string): string {
  const [, month, day] = iso.split('-').map(Number);
  return `${MONTHS[month! - 1]} ${day}`;
}
