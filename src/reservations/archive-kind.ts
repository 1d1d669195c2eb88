import type { ArchivableKind } from '../records/record-kind.ts';
import { archivedReservation, ArchivedReservationSchema } from './schemas.ts';

/** How reservations are archived and listed when archived (src/archive does the work). */
export const reservationArchive: ArchivableKind<'reservations'> = {
  table: 'reservations',
  pathPrefix: '/api/admin/reservations',
  tag: 'Admin: reservations',
  listKey: 'reservations',
  texts: {
    notFound: 'Reservation not found',
    alreadyArchived: 'Reservation already archived',
    notArchived: 'Reservation is not archived',
  },
  archivedItem: archivedReservation,
  archivedItemSchema: ArchivedReservationSchema,
};
