import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchRoomKey } from '../../app/room/room-client.ts';
import { JOIN_HASH } from '../../app/router.ts';
import { AttendeeRoom } from './AttendeeRoom.tsx';
import { InstructorRoom, type InstructorAccess } from './InstructorRoom.tsx';
import './room.css';

/**
 * The workshop room: at #room, the class's grid where the room key is given (the instructor's own
 * machine); at #join (the address attendees are given), and at #room anywhere else, the join form
 * and then the attendee's own standing. (#join never asks for the key: on a workshop run all on
 * one machine, every page is on the instructor's machine.)
 */
export function RoomView(props: Parameters<typeof AttendeeRoom>[0]) {
  const { t } = useTranslation('room');
  const [access, setAccess] = useState<InstructorAccess | 'attendee' | 'checking'>('checking');
  const [joinAddress, setJoinAddress] = useState(() => window.location.hash.startsWith(JOIN_HASH));
  useEffect(() => {
    const listener = () => setJoinAddress(window.location.hash.startsWith(JOIN_HASH));
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
  useEffect(() => {
    let current = true;
    void fetchRoomKey({ origin: window.location.origin }).then((key) => {
      if (current) setAccess(key ?? 'attendee');
    });
    return () => {
      current = false;
    };
  }, []);
  return (
    <section className="room" aria-labelledby="room-heading">
      <h2 id="room-heading">{t('heading')}</h2>
      {joinAddress ? (
        <AttendeeRoom {...props} />
      ) : access === 'checking' ? (
        <p role="status">{t('checking')}</p>
      ) : access === 'attendee' ? (
        <AttendeeRoom {...props} />
      ) : (
        <InstructorRoom access={access} />
      )}
    </section>
  );
}

export default RoomView;
