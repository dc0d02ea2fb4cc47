import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { needsPackage, type PackageStanding, STANDING_KEY } from './packageStanding.ts';

/**
 * Whether the signed-in account must buy a package before adding a site or a stream: from the
 * standing, or because a create call was refused with package_required. A failed look-up shows
 * nothing: the create call still answers package_required, which `refused` then records.
 */
export const usePackageGate = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const [refused, setRefused] = useState(false);
  const standing = useQuery({
    queryKey: STANDING_KEY,
    retry: false,
    queryFn: ({ signal }) => http.get<PackageStanding>('/v1/user-packages/standing', { signal, silent: true }),
  });
  const onRefused = useCallback(() => {
    setRefused(true);
    void queryClient.invalidateQueries({ queryKey: STANDING_KEY });
  }, [queryClient]);
  return { blocked: refused || needsPackage(standing.data), onRefused };
};
