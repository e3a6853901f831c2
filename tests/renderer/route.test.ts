import { describe, expect, it } from 'vitest';
import { hashFromRoute, routeFromHash } from '../../renderer/app/route-hash';

describe('route in the URL hash', () => {
  it('round-trips view, task, trace and tool (a reload lands on the same place)', () => {
    const route = { view: 'trace' as const, task: 'fx settle/ä', trace: 'r#1', tool: 'Rate&Lookup' };
    expect(routeFromHash(hashFromRoute(route))).toEqual(route);
  });

  it('falls back to home for an unknown view', () => {
    expect(routeFromHash('#/nope?task=x')).toEqual({ view: 'home', task: 'x' });
    expect(routeFromHash('')).toEqual({ view: 'home' });
  });
});
