import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import type { Area } from 'react-easy-crop';
import { useLingui } from '@lingui/react/macro';
import { showToast } from '../../components/toast';
import { useIntentKey } from '../../lib/intent-key';
import { updateLoginInfo } from '../../lib/storage';
import { wireLang } from '../../lib/i18n';
import { refreshUserInfo } from '../../lib/user-info';
import { errorMessage } from '../../../shared/errors';
import { cropToBlob, loadImage, uploadAvatar, type AvatarUpload } from './avatar-upload';

// The avatar editor's two halves: the picture being framed (usePicture) and its upload (useAvatarUpload),
// which the browser cuts to 512x512 and the server checks and re-encodes (docs/decisions/0007-avatar.md).

interface Picked {
  url: string;
  img: HTMLImageElement;
}

/** The chosen picture and how it is framed: position, zoom, quarter turns, and the crop in its pixels. */
export function usePicture() {
  const [picked, setPicked] = useState<Picked | null>(null);
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const area = useRef<Area | null>(null);

  // Free the picture's object URL when it is replaced or the page closes.
  useEffect(
    () => () => {
      if (picked) URL.revokeObjectURL(picked.url);
    },
    [picked],
  );

  /** Opens `file` for framing; false when it is not a picture the browser can read. */
  const choose = async (file: File): Promise<boolean> => {
    const url = URL.createObjectURL(file);
    const img = file.type.startsWith('image/') || file.type === '' ? await loadImage(url) : null;
    if (!img) {
      URL.revokeObjectURL(url);
      return false;
    }
    setCrop({ x: 0, y: 0 });
    setZoom(1);
    setRotation(0);
    area.current = null;
    setPicked({ url, img });
    return true;
  };

  const onCropComplete = useCallback((_: Area, pixels: Area) => {
    area.current = pixels;
  }, []);

  return { picked, crop, setCrop, zoom, setZoom, rotation, setRotation, area, choose, onCropComplete };
}

export type Picture = ReturnType<typeof usePicture>;

/** The upload of the framed picture: its progress, a cancel, and what went wrong or was cancelled. On
 *  success the profile shows the new picture. */
export function useAvatarUpload() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const job = useRef<AvatarUpload | null>(null);
  const { keyFor, settle } = useIntentKey();

  // Stop an upload under way when the page closes.
  useEffect(() => () => job.current?.abort(), []);

  const clear = () => {
    setError('');
    setNote('');
  };

  const upload = async ({ picked, area, rotation }: Pick<Picture, 'picked' | 'area' | 'rotation'>) => {
    if (!picked || !area.current || job.current) return;
    clear();
    const blob = await cropToBlob(picked.img, area.current, rotation);
    if (!blob) {
      setError(errorMessage('avatar_unreadable', wireLang()));
      return;
    }
    const key = keyFor({ url: picked.url, area: area.current, rotation });
    setProgress(0);
    const current = uploadAvatar(blob, key, setProgress);
    job.current = current;
    const res = await current.done;
    job.current = null;
    setProgress(null);
    if (res === 'aborted') {
      setNote(t`Upload cancelled. Your profile photo has not changed.`);
      return;
    }
    settle(res.code);
    if (res.code !== 0) {
      setError(res.msg);
      return;
    }
    updateLoginInfo({ avatar: res.avatar });
    await refreshUserInfo();
    showToast(t`Profile photo updated.`, 'success');
    void navigate({ to: '/pages/profile/index' });
  };

  return { progress, error, setError, note, clear, upload, cancel: () => job.current?.abort() };
}
