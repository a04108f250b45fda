#include "textflag.h"

// func dotU8I8BatchAVX2(q *uint8, rows *int8, dim, n int, out *int32)
//
// For each row: multiply 32 unsigned bytes of q with 32 signed bytes of the
// row and add adjacent pairs into int16 (VPMADDUBSW; with q ≤ 127 and
// |row| ≤ 63 a pair is at most 16,002, no saturation), add adjacent int16
// pairs into int32 (VPMADDWD with ones), accumulate.
TEXT ·dotU8I8BatchAVX2(SB), NOSPLIT, $0-40
	MOVQ q+0(FP), SI
	MOVQ rows+8(FP), DI
	MOVQ dim+16(FP), DX
	MOVQ n+24(FP), R8
	MOVQ out+32(FP), R9
	VPCMPEQW Y15, Y15, Y15
	VPSRLW   $15, Y15, Y15

row:
	CMPQ R8, $0
	JE   done
	MOVQ SI, R10
	MOVQ DX, CX
	VPXOR Y0, Y0, Y0

loop32:
	VMOVDQU    (R10), Y2
	VPMADDUBSW (DI), Y2, Y3
	VPMADDWD   Y15, Y3, Y3
	VPADDD     Y3, Y0, Y0
	ADDQ       $32, R10
	ADDQ       $32, DI
	SUBQ       $32, CX
	JNE        loop32

	VEXTRACTI128 $1, Y0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0x4E, X0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0xB1, X0, X1
	VPADDD       X1, X0, X0
	VMOVD        X0, AX
	MOVL         AX, (R9)
	ADDQ         $4, R9
	DECQ         R8
	JMP          row

done:
	VZEROUPPER
	RET

// func maxAbsAVX2(x *float32, n int) float32
//
// max |x[t]| over n floats; n must be a multiple of 8.
TEXT ·maxAbsAVX2(SB), NOSPLIT, $0-20
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VXORPS  Y0, Y0, Y0
	VPCMPEQD Y1, Y1, Y1
	VPSRLD  $1, Y1, Y1

mloop:
	VANDPS (SI), Y1, Y2
	VMAXPS Y2, Y0, Y0
	ADDQ   $32, SI
	SUBQ   $8, CX
	JNE    mloop

	VEXTRACTF128 $1, Y0, X1
	VMAXPS       X1, X0, X0
	VPERMILPS    $0x4E, X0, X1
	VMAXPS       X1, X0, X0
	VPERMILPS    $0xB1, X0, X1
	VMAXPS       X1, X0, X0
	VZEROUPPER
	MOVSS        X0, ret+16(FP)
	RET

DATA i8perm<>+0(SB)/4, $0
DATA i8perm<>+4(SB)/4, $4
DATA i8perm<>+8(SB)/4, $1
DATA i8perm<>+12(SB)/4, $5
DATA i8perm<>+16(SB)/4, $2
DATA i8perm<>+20(SB)/4, $6
DATA i8perm<>+24(SB)/4, $3
DATA i8perm<>+28(SB)/4, $7
GLOBL i8perm<>(SB), RODATA|NOPTR, $32

// func quantizeAVX2(dst *int8, x *float32, n int, f float32)
//
// dst[t] = x[t]·f rounded to the nearest integer (ties to even), for n a
// multiple of 32 and |x[t]·f| ≤ 127.
TEXT ·quantizeAVX2(SB), NOSPLIT, $0-28
	MOVQ          dst+0(FP), DI
	MOVQ          x+8(FP), SI
	MOVQ          n+16(FP), CX
	VBROADCASTSS  f+24(FP), Y15
	VMOVDQU       i8perm<>(SB), Y14

qloop:
	VMULPS    (SI), Y15, Y0
	VMULPS    32(SI), Y15, Y1
	VMULPS    64(SI), Y15, Y2
	VMULPS    96(SI), Y15, Y3
	VCVTPS2DQ Y0, Y0
	VCVTPS2DQ Y1, Y1
	VCVTPS2DQ Y2, Y2
	VCVTPS2DQ Y3, Y3
	VPACKSSDW Y1, Y0, Y0
	VPACKSSDW Y3, Y2, Y2
	VPACKSSWB Y2, Y0, Y0
	VPERMD    Y0, Y14, Y0
	VMOVDQU   Y0, (DI)
	ADDQ      $128, SI
	ADDQ      $32, DI
	SUBQ      $32, CX
	JNE       qloop

	VZEROUPPER
	RET
