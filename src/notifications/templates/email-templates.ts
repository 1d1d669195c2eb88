import type { EmailContent, TemplatedEmail } from '../message.ts';
import { renderReservationConfirmation } from './reservation.ts';
import { renderRestockNotice } from './restock.ts';

/** Renders a queued email at send time, from the facts fixed when it was queued. */
export function renderTemplatedEmail(email: TemplatedEmail): EmailContent {
  switch (email.template) {
    case 'reservation-confirmation':
      return renderReservationConfirmation(email.facts);
    case 'restock-notice':
      return renderRestockNotice(email.facts);
  }
}
