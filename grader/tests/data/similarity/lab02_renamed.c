// Lab 2 -- my own softmax (honest!)
// Every name below differs from the reference solution, every constant is
// spelled differently, and the layout is another style altogether: yet the
// token stream, once names and literals are abstracted, is the same.
#include <math.h>
#include "lab02.h"

int lab_softmax(float *out, const float *sc, int nrow, int len, int *dead_rows)
{
	if (nrow < 0x0 || len < 01)
	{
		return LAB_BAD_ARG;
	}
	int n_dead = 000;
	for (int row = 0x00; row < nrow; row++)
	{
		const float *in = sc + (long)row * len;
		float *o = out + (long)row * len;
		/* find the top */
		float top = -INFINITY;
		for (int col = 0; col < len; col++)
		{
			if (in[col] > top)
			{
				top = in[col];
			}
		}
		if (top == -INFINITY)
		{
			for (int col = 0; col < len; col++)
			{
				o[col] = 0.f;
			}
			n_dead++;
			continue;
		}
		double acc = 0e0;
		for (int col = 0; col < len; col++)
		{
			float ex = expf(in[col] - top);
			o[col] = ex;
			acc += (double)ex;
		}
		for (int col = 0; col < len; col++)
		{
			o[col] = (float)((double)o[col] / acc);
		}
	}
	if (dead_rows != NULL)
	{
		*dead_rows = n_dead;
	}
	return LAB_OK;
}

int lab_causal_mask(float *sc, int nb, int nq, int nk)
{
	if (nb < 0 || nq < 0 || nk < 0)
	{
		return LAB_BAD_ARG;
	}
	for (int bi = 0; bi < nb; bi++)
	{
		for (int qi = 0; qi < nq; qi++)
		{
			float *in = sc + ((long)bi * nq + qi) * nk;
			for (int col = qi + 0x1; col < nk; col++)
			{
				in[col] = -INFINITY;
			}
		}
	}
	return LAB_OK;
}

int lab_padding_mask(float *sc, const int *lens, int nb, int nq, int nk)
{
	if (nb < 0 || nq < 0 || nk < 0)
	{
		return LAB_BAD_ARG;
	}
	for (int bi = 0; bi < nb; bi++)
	{
		if (lens[bi] < 0 || lens[bi] > nk)
		{
			return LAB_BAD_ARG;
		}
	}
	for (int bi = 0; bi < nb; bi++)
	{
		for (int qi = 0; qi < nq; qi++)
		{
			float *in = sc + ((long)bi * nq + qi) * nk;
			for (int col = lens[bi]; col < nk; col++)
			{
				in[col] = -INFINITY;
			}
		}
	}
	return LAB_OK;
}

int lab_bool_mask(float *sc, const unsigned char *blk, int nb, int nq, int nk)
{
	if (nb < 0 || nq < 0 || nk < 0)
	{
		return LAB_BAD_ARG;
	}
	long cnt = (long)nb * nq * nk;
	for (long idx = 0L; idx < cnt; idx++)
	{
		if (blk[idx] != 0u)
		{
			sc[idx] = -INFINITY;
		}
	}
	return LAB_OK;
}

int lab_temperature(float *sc, float temp, int len)
{
	if (!(temp > 0.0F) || isinf(temp) || len < 0)
	{
		return LAB_BAD_ARG;
	}
	for (int idx = 0; idx < len; idx++)
	{
		sc[idx] = sc[idx] / temp;
	}
	return LAB_OK;
}
