import type { StatusTable } from '../records/status-transitions.ts';

export const RESERVATION_STATUSES = ['pending', 'confirmed', 'fulfilled', 'cancelled'] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** The seed's "States and transitions" table: every move an administrator may make. */
export const RESERVATION_STATUS_TABLE: StatusTable<ReservationStatus> = {
  statuses: RESERVATION_STATUSES,
  moves: [
    ['pending', 'confirmed'],
    ['pending', 'cancelled'],
    ['confirmed', 'fulfilled'],
    ['confirmed', 'cancelled'],
    ['confirmed', 'pending'],
    ['fulfilled', 'confirmed'],
    ['cancelled', 'pending'],
  ],
};
